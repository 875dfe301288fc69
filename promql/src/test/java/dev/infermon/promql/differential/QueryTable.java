package dev.infermon.promql.differential;

import java.util.ArrayList;
import java.util.List;

/**
 * The generated queries: every PromQL function of Prometheus 2.42 with suitable arguments, every
 * binary operator over vector/scalar combinations with matching modifiers, every aggregation with
 * {@code by}/{@code without} and parameters, offsets, subqueries and {@code @}, over the {@link
 * DataSet} families. Each entry has infermon's spelling and Prometheus 2.42's (they differ only
 * where 3.x renamed a function: {@code holt_winters} became {@code double_exponential_smoothing}).
 */
final class QueryTable {
  /** One query, as each side spells it. */
  record Query(String category, String infermon, String prometheus) {
    @Override
    public String toString() {
      return infermon;
    }
  }

  static final String COUNTER = "vllm:request_success_total";
  static final String TOKENS = "vllm:generation_tokens_total";
  static final String RUNNING = "vllm:num_requests_running";
  static final String WAITING = "vllm:num_requests_waiting";
  static final String KV = "vllm:kv_cache_usage_perc";
  static final String RATIO = "vllm:spec_decode_draft_acceptance_rate";
  static final String BUCKET = "vllm:time_to_first_token_seconds_bucket";
  static final String TTFT_SUM = "vllm:time_to_first_token_seconds_sum";
  static final String TTFT_COUNT = "vllm:time_to_first_token_seconds_count";

  /** Whole seconds, 17 s past a minute like every evaluation step: T0 + 45m17s and + 130m17s. */
  static final String AT_EARLY = "1704069917";

  static final String AT_LATE = "1704075017";

  private final List<Query> out = new ArrayList<>();

  private QueryTable() {}

  static List<Query> all() {
    QueryTable t = new QueryTable();
    t.selectors();
    t.rangeFunctions();
    t.instantFunctions();
    t.labelAndMiscFunctions();
    t.histograms();
    t.arithmetic();
    t.comparisons();
    t.setOperators();
    t.aggregations();
    t.subqueries();
    t.atModifier();
    t.errors();
    t.deep();
    return List.copyOf(t.out);
  }

  private void q(String category, String query) {
    out.add(new Query(category, query, query));
  }

  private void selectors() {
    String c = "selector";
    q(c, RUNNING);
    q(c, RUNNING + "{model_name=\"llama-3-8b\"}");
    q(c, RUNNING + "{pod!=\"vllm-0\"}");
    q(c, RUNNING + "{pod=~\"vllm-[12]\"}");
    q(c, RUNNING + "{pod!~\"vllm-(0|3)\", model_name=~\"qwen.*\"}");
    q(c, "{__name__=~\"vllm:num_requests_.*\", pod=\"vllm-1\"}");
    q(c, "{__name__=~\"vllm:(prompt|generation)_tokens_total\"}");
    q(c, WAITING); // pod 0 goes stale and comes back; pod 3 goes stale for good
    q(c, COUNTER + "{pod=\"vllm-1\"}"); // reset at minute 75
    q(c, RATIO); // NaN and +Inf values
    q(c, "up");
    q(c, "up{pod=\"vllm-2\"}"); // 0 during the gap
    q(c, COUNTER + " offset 5m");
    q(c, KV + " offset 17m");
    q(c, WAITING + " offset -3m");
    q(c, RUNNING + "{pod=\"vllm-2\"} offset 1h");
    q(c, "nonexistent_metric");
  }

  private void rangeFunctions() {
    String c = "range function";
    String[] ranges = {"1m", "5m", "17m"};
    for (String r : ranges) {
      for (String f : new String[] {"rate", "irate", "increase", "resets", "changes"}) {
        q(c, f + "(" + COUNTER + "[" + r + "])");
      }
      for (String f : new String[] {"delta", "idelta", "deriv", "changes", "resets"}) {
        q(c, f + "(" + KV + "[" + r + "])");
      }
      for (String f :
          new String[] {
            "avg_over_time",
            "min_over_time",
            "max_over_time",
            "sum_over_time",
            "count_over_time",
            "stddev_over_time",
            "stdvar_over_time",
            "last_over_time",
            "present_over_time"
          }) {
        q(c, f + "(" + RUNNING + "[" + r + "])");
      }
    }
    for (String f :
        new String[] {
          "avg_over_time",
          "min_over_time",
          "max_over_time",
          "sum_over_time",
          "count_over_time",
          "stddev_over_time",
          "last_over_time",
          "changes",
          "delta",
          "deriv"
        }) {
      q(c, f + "(" + RATIO + "[5m])"); // NaN and +Inf inside windows
    }
    for (String f : new String[] {"count_over_time", "last_over_time", "present_over_time"}) {
      q(c, f + "(" + WAITING + "[10m])"); // staleness markers inside windows
    }
    q(c, "rate(" + COUNTER + "[5m] offset 10m)");
    q(c, "increase(" + TOKENS + "[1h])");
    q(c, "rate(" + TTFT_COUNT + "{pod=\"vllm-2\"}[3m])"); // across the gap
    q(c, "deriv(" + RUNNING + "[10m])");
    for (String d : new String[] {"300", "3600", "-600"}) {
      q(c, "predict_linear(" + KV + "[10m], " + d + ")");
    }
    q(c, "predict_linear(" + RUNNING + "[30m], 600)");
    for (String p : new String[] {"0", "0.25", "0.5", "0.9", "1", "-0.5", "1.5"}) {
      q(c, "quantile_over_time(" + p + ", " + RUNNING + "[10m])");
    }
    q(c, "quantile_over_time(0.5, " + RATIO + "[10m])");
    q(c, "absent_over_time(" + RUNNING + "[5m])");
    q(c, "absent_over_time(" + RUNNING + "{pod=\"vllm-3\"}[5m])"); // 1 once pod 3 is gone
    q(c, "absent_over_time(nonexistent_metric{job=\"vllm\", pod=~\"x.*\"}[5m])");
    for (String sf : new String[] {"0.3", "0.8"}) {
      for (String tf : new String[] {"0.1", "0.5"}) {
        out.add(
            new Query(
                c,
                "double_exponential_smoothing(" + RUNNING + "[10m], " + sf + ", " + tf + ")",
                "holt_winters(" + RUNNING + "[10m], " + sf + ", " + tf + ")"));
      }
    }
    out.add(
        new Query(
            c,
            "double_exponential_smoothing(" + KV + "[30m], 0.5, 0.5)",
            "holt_winters(" + KV + "[30m], 0.5, 0.5)"));
  }

  private void instantFunctions() {
    String c = "instant function";
    for (String f :
        new String[] {"abs", "ceil", "floor", "exp", "sqrt", "ln", "log2", "log10", "sgn"}) {
      q(c, f + "(" + KV + ")");
      q(c, f + "(" + RUNNING + " - 10)");
    }
    for (String f :
        new String[] {
          "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
          "atanh", "deg", "rad"
        }) {
      q(c, f + "(" + KV + ")");
    }
    q(c, "acosh(" + RUNNING + ")");
    q(c, "round(" + KV + ")");
    q(c, "round(" + KV + ", 0.25)");
    q(c, "round(" + RUNNING + " / 3, 2)");
    q(c, "round(-" + KV + " * 10)");
    q(c, "clamp(" + KV + ", 0.2, 0.6)");
    q(c, "clamp(" + KV + ", 0.6, 0.2)"); // min > max: empty
    q(c, "clamp_min(" + RUNNING + ", 5)");
    q(c, "clamp_max(" + RUNNING + ", 5)");
    q(c, "clamp_max(" + RATIO + ", 0.5)");
    q(c, "abs(" + RATIO + ")");
    q(c, "exp(" + RUNNING + " * 100)"); // overflows to +Inf
    q(c, "ln(" + WAITING + ")"); // ln(0) = -Inf
    for (String f :
        new String[] {
          "year",
          "month",
          "day_of_month",
          "day_of_week",
          "day_of_year",
          "days_in_month",
          "hour",
          "minute"
        }) {
      q(c, f + "()");
      q(c, f + "(timestamp(" + RUNNING + "))");
    }
    q(c, "month(vector(1709251200))"); // 2024-03-01 (leap year)
    q(c, "days_in_month(vector(1707000000))");
    q(c, "timestamp(" + KV + ")");
    q(c, "timestamp(" + WAITING + " offset 2m)");
    q(c, "time()");
    q(c, "time() - timestamp(" + COUNTER + ")");
    q(c, "pi()");
    q(c, "vector(time())");
    q(c, "vector(1)");
    q(c, "scalar(sum(" + RUNNING + "))");
    q(c, "scalar(" + RUNNING + ")"); // several series: NaN
    q(c, "scalar(" + RUNNING + "{pod=\"vllm-2\"})");
    q(c, RUNNING + " * scalar(up{pod=\"vllm-2\"})");
  }

  private void labelAndMiscFunctions() {
    String c = "label function";
    q(c, "label_replace(" + RUNNING + ", \"n\", \"$1\", \"pod\", \"vllm-(.*)\")");
    q(
        c,
        "label_replace("
            + RUNNING
            + ", \"pod\", \"p-$1-$2\", \"instance\", \"(.*)\\\\.(\\\\d+):8000\")");
    q(c, "label_replace(" + RUNNING + ", \"n\", \"x\", \"pod\", \"nomatch\")");
    q(c, "label_replace(" + RUNNING + ", \"model_name\", \"\", \"model_name\", \".*\")");
    q(c, "label_replace(rate(" + COUNTER + "[5m]), \"__name__\", \"renamed\", \"\", \"\")");
    q(c, "label_join(" + RUNNING + ", \"id\", \"/\", \"model_name\", \"pod\")");
    q(c, "label_join(" + RUNNING + ", \"pod\", \"-\", \"pod\", \"namespace\")");
    q(c, "label_join(" + KV + ", \"empty\", \",\")");
    q(c, "sort(" + RUNNING + ")");
    q(c, "sort_desc(rate(" + COUNTER + "[5m]))");
    q(c, "absent(" + RUNNING + ")");
    q(c, "absent(nonexistent_metric{job=\"vllm\", pod=\"a\", model_name=~\"x\"})");
    q(c, "absent(" + RUNNING + "{pod=\"vllm-3\"})");
    q(c, "absent(sum(nonexistent_metric))");
  }

  private void histograms() {
    String c = "histogram";
    for (String p : new String[] {"0", "0.5", "0.9", "0.95", "0.99", "1", "-1", "2"}) {
      q(c, "histogram_quantile(" + p + ", sum by (le, model_name) (rate(" + BUCKET + "[5m])))");
    }
    q(c, "histogram_quantile(0.9, rate(" + BUCKET + "[5m]))");
    q(c, "histogram_quantile(0.5, rate(" + BUCKET + "[1m]))"); // some windows without requests
    q(c, "histogram_quantile(0.9, " + BUCKET + ")");
    q(c, "histogram_quantile(0.95, sum by (le) (increase(" + BUCKET + "[10m])))");
    q(c, "histogram_quantile(0.9, sum without (pod, instance) (rate(" + BUCKET + "[5m])))");
    q(c, "histogram_quantile(0.9, rate(" + BUCKET + "{le!=\"+Inf\"}[5m]))"); // no +Inf: NaN
    q(c, "histogram_quantile(scalar(up{pod=\"vllm-0\"}) * 0.9, rate(" + BUCKET + "[5m]))");
    q(c, "rate(" + TTFT_SUM + "[5m]) / rate(" + TTFT_COUNT + "[5m])");
    q(
        c,
        "sum by (model_name) (rate("
            + TTFT_SUM
            + "[5m])) / sum by (model_name) (rate("
            + TTFT_COUNT
            + "[5m]))");
    q(c, "histogram_count(rate(" + BUCKET + "[5m]))"); // floats only: empty on both sides
    q(c, "histogram_sum(rate(" + BUCKET + "[5m]))");
    q(c, "histogram_fraction(0, 0.1, rate(" + BUCKET + "[5m]))");
  }

  private void arithmetic() {
    String c = "arithmetic";
    for (String op : new String[] {"+", "-", "*", "/", "%", "^", "atan2"}) {
      q(c, RUNNING + " " + op + " 3");
      q(c, "2 " + op + " " + KV);
      q(c, RUNNING + " " + op + " " + WAITING);
      q(c, "3 " + op + " 2");
      q(
          c,
          "rate("
              + COUNTER
              + "[5m]) "
              + op
              + " ignoring(finished_reason) group_left "
              + "sum without (finished_reason) (rate("
              + COUNTER
              + "[5m]))");
      q(c, "sum by (pod) (" + RUNNING + ") " + op + " on (pod) sum by (pod) (" + KV + ")");
    }
    q(c, "-" + KV);
    q(c, "-(" + RUNNING + " - 5)");
    q(c, "+" + RUNNING);
    q(c, "1 + 2 * 3 ^ 2 ^ 0.5 - " + RUNNING + " / 4 % 3");
    q(c, "(1 + 2) * -" + KV + " ^ 2");
    q(c, RUNNING + " / 0");
    q(c, "0 * " + RATIO);
    q(c, RUNNING + " % 0");
    q(c, KV + " ^ -1");
    q(c, "-2 ^ 0.5");
    q(
        c,
        "sum by (pod, model_name) (rate("
            + COUNTER
            + "[5m])) / on (pod) group_left (instance) "
            + "up");
    q(
        c,
        "up * on (pod) group_right (model_name) sum by (pod, model_name, finished_reason) (rate("
            + COUNTER
            + "[5m]))");
    q(c, RUNNING + " + on (pod, model_name) " + WAITING);
    q(c, RUNNING + " - ignoring (instance) " + WAITING);
    q(c, "rate(" + TOKENS + "[5m]) / on () group_left sum(rate(" + TOKENS + "[5m]))");
    q(c, "time() - " + RUNNING);
  }

  private void comparisons() {
    String c = "comparison";
    for (String op : new String[] {"==", "!=", ">", "<", ">=", "<="}) {
      q(c, RUNNING + " " + op + " 6");
      q(c, RUNNING + " " + op + " bool 6");
      q(c, "6 " + op + " " + RUNNING);
      q(c, RUNNING + " " + op + " " + WAITING);
      q(c, RUNNING + " " + op + " bool " + WAITING);
      q(c, "3 " + op + " bool 2");
      q(c, RATIO + " " + op + " 0.5"); // NaN and +Inf on the left
    }
    q(c, "up == 0");
    q(
        c,
        "sum by (pod) (rate("
            + COUNTER
            + "[5m])) > on (pod) sum by (pod) (rate("
            + COUNTER
            + "{finished_reason=\"stop\"}[5m])) * 1.1");
    q(
        c,
        "rate("
            + COUNTER
            + "[5m]) > bool ignoring (finished_reason) group_left "
            + "sum without (finished_reason) (rate("
            + COUNTER
            + "[5m])) * 0.5");
    q(c, KV + " > 0.3 < 0.7");
    q(c, "(" + KV + " > 0.4) * 100");
  }

  private void setOperators() {
    String c = "set operator";
    q(c, RUNNING + " and " + WAITING);
    q(c, RUNNING + " and " + WAITING + " > 0");
    q(c, RUNNING + " or " + WAITING);
    q(c, RUNNING + " unless " + WAITING + " > 0");
    q(c, RUNNING + " and on (pod) (up == 1)");
    q(c, RUNNING + " unless on (model_name) " + KV + " > 0.5");
    q(c, RUNNING + " or ignoring (model_name) " + KV);
    q(c, "(" + RUNNING + " > 8) or (" + KV + " < 0.3)");
    q(c, "sum by (pod) (" + RUNNING + ") or vector(0)");
    q(c, "up unless on (pod) " + WAITING);
    q(c, RATIO + " and " + KV + " > 0.2");
    q(
        c,
        "rate("
            + COUNTER
            + "[5m]) and on (pod, finished_reason) rate("
            + COUNTER
            + "{finished_reason=\"stop\"}[5m]) > 0.1");
  }

  private void aggregations() {
    String c = "aggregation";
    String[] inputs = {RUNNING, "rate(" + COUNTER + "[5m])"};
    String[] groupings = {"", " by (model_name)", " without (pod, instance)"};
    for (String op :
        new String[] {"sum", "avg", "min", "max", "count", "group", "stddev", "stdvar"}) {
      for (String in : inputs) {
        for (String g : groupings) {
          q(c, op + g + " (" + in + ")");
        }
      }
      q(c, op + " by (pod) (" + RATIO + ")"); // NaN and +Inf
    }
    for (String op : new String[] {"topk", "bottomk"}) {
      for (String k : new String[] {"1", "2", "10"}) {
        q(c, op + "(" + k + ", " + KV + ")");
      }
      q(c, op + "(2, " + RUNNING + ")"); // integer gauges tie: see KNOWN_DIFFERENCES
      q(c, op + " by (model_name) (1, rate(" + COUNTER + "[5m]))");
      q(c, op + " without (finished_reason) (2, rate(" + COUNTER + "[5m]))");
      q(c, op + "(1, " + RATIO + ")");
    }
    q(c, "topk(scalar(count(up)) - 2, " + KV + ")");
    for (String p : new String[] {"0", "0.1", "0.5", "0.99", "1", "-1", "2"}) {
      q(c, "quantile(" + p + ", " + RUNNING + ")");
    }
    q(c, "quantile by (model_name) (0.9, rate(" + COUNTER + "[5m]))");
    q(c, "quantile without (finished_reason) (0.5, rate(" + COUNTER + "[5m]))");
    q(c, "count_values(\"value\", " + RUNNING + ")");
    q(c, "count_values by (model_name) (\"running\", " + RUNNING + ")");
    q(c, "count_values(\"kv\", round(" + KV + ", 0.1))");
    q(c, "count_values(\"pod\", " + WAITING + ")"); // overwrites an existing label
    q(c, "sum(sum by (model_name) (rate(" + COUNTER + "[5m])))");
    q(c, "max by (model_name) (sum by (pod, model_name) (" + RUNNING + "))");
    q(c, "avg(" + KV + ") * count(" + KV + ")");
    q(c, "sum by (le) (rate(" + BUCKET + "[5m]))");
    q(c, "count(" + WAITING + ")");
    q(c, "sum(" + WAITING + " offset 10m)");
    q(c, "avg without () (" + KV + ")");
    q(c, "sum by (__name__) ({__name__=~\"vllm:num_requests_.*\"})");
  }

  private void subqueries() {
    String c = "subquery";
    q(c, "max_over_time(rate(" + COUNTER + "[5m])[30m:1m])");
    q(c, "avg_over_time(" + RUNNING + "[10m:30s])");
    q(c, "min_over_time(sum by (model_name) (" + KV + ")[15m:2m] offset 5m)");
    q(c, "max_over_time(" + KV + "[20m:])");
    q(c, "rate(sum(" + TOKENS + ")[10m:1m])");
    q(c, "deriv(" + RUNNING + "[10m:1m])");
    q(c, "quantile_over_time(0.9, rate(" + COUNTER + "[5m])[30m:5m])");
    // The inner range is no multiple of the inner step: the outer subquery's steps are aligned,
    // so a 5m range would put an inner point exactly on a window edge (2.x and 3.x differ there).
    q(c, "max_over_time(max_over_time(" + RUNNING + "[5m30s:1m])[20m:2m])");
    q(c, "count_over_time((" + RUNNING + " > 5)[30m:1m])");
    q(c, "sum_over_time(" + WAITING + "[20m:10s])"); // staleness inside the subquery range
    q(c, "last_over_time(" + KV + "[5m:1m] offset 10m)");
    q(
        c,
        "stddev_over_time(histogram_quantile(0.9, sum by (le) (rate("
            + BUCKET
            + "[5m])))[30m:1m])");
    q(c, "changes(up[30m:1m])");
    q(c, "increase(" + COUNTER + "{pod=\"vllm-1\"}[20m:30s])"); // across the reset
    q(c, "irate(" + COUNTER + "[20m:2m])");
    q(c, "present_over_time(" + WAITING + "{pod=\"vllm-0\"}[3m:1m])");
  }

  private void atModifier() {
    String c = "@ modifier";
    q(c, KV + " @ " + AT_EARLY);
    q(c, RUNNING + " @ " + AT_LATE);
    q(c, "rate(" + COUNTER + "[5m] @ " + AT_EARLY + ")");
    q(c, "rate(" + COUNTER + "[5m] @ " + AT_LATE + " offset 20m)");
    q(c, "sum(" + RUNNING + " @ end())");
    q(c, RUNNING + " @ start() offset 5m");
    q(c, "rate(" + TOKENS + "[5m] @ end()) / rate(" + TOKENS + "[5m])");
    q(c, "topk(1, " + KV + " @ " + AT_EARLY + ")");
    q(c, RUNNING + " - " + RUNNING + " @ start()");
    q(c, "max_over_time(" + KV + "[10m:1m] @ " + AT_LATE + ")");
    q(c, "max_over_time(rate(" + COUNTER + "[5m])[30m:1m] @ end())");
    q(c, "histogram_quantile(0.9, sum by (le) (rate(" + BUCKET + "[5m] @ " + AT_EARLY + ")))");
    q(c, WAITING + " @ " + AT_LATE); // pod 3 is gone by then
    q(c, "timestamp(" + KV + " @ " + AT_EARLY + ")");
  }

  private void errors() {
    String c = "error";
    // Both sides must fail: one-to-many without group_left, many-to-many on both sides.
    q(c, COUNTER + " + on (pod) " + RUNNING);
    q(c, COUNTER + " + ignoring (finished_reason) " + COUNTER);
    q(c, "rate({__name__=~\"vllm:(prompt|generation)_tokens_total\"}[5m])");
    q(c, "label_replace(" + RUNNING + ", \"pod\", \"x\", \"\", \"\")");
    q(c, "sum by (pod) (" + RUNNING + ") + on (pod) group_left " + COUNTER);
  }

  /**
   * Chains of 300 terms and nesting 1,500 deep. Prometheus's time grows with the square of a
   * chain's length, so longer chains over this data's 146 steps take it tens of seconds on a busy
   * machine; DeepExpressionsTest runs 1,500 to 20,000 terms on infermon alone.
   */
  private void deep() {
    String c = "deep";
    int terms = 300;
    int depth = 1500;
    q(c, chain("sum(" + COUNTER + ")", " + ", terms));
    q(c, chain(RUNNING, " or ", terms));
    q(c, chain(RUNNING, " and ", terms));
    q(c, chain("1", " - ", terms) + " * " + KV);
    q(c, "(".repeat(depth) + "rate(" + COUNTER + "[5m])" + ")".repeat(depth));
    q(c, "abs(".repeat(depth) + RUNNING + ")".repeat(depth));
    q(c, "-".repeat(depth + 1) + WAITING);
  }

  private static String chain(String operand, String op, int n) {
    return operand + (op + operand).repeat(n - 1);
  }
}
