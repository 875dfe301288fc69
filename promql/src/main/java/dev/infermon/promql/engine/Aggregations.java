package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.text.GoQuote;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.AggregateOp;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.StringLiteral;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Aggregation operators. The group of every input series is computed once per query; each step then
 * folds values into per-group primitive accumulators (Kahan sums, Welford variance), as
 * Prometheus's {@code rangeEvalAgg}.
 */
final class Aggregations {
  private Aggregations() {}

  static List<EvalSeries> eval(Evaluator ev, AggregateExpr a) {
    List<String> grouping = new ArrayList<>(a.grouping());
    grouping.sort(null);
    AggregateOp op = a.op();
    if (op == AggregateOp.COUNT_VALUES) {
      return countValues(ev, a, grouping);
    }
    if (op == AggregateOp.LIMITK || op == AggregateOp.LIMIT_RATIO) {
      throw new QueryException(op.keyword() + " is not supported");
    }
    QueryContext ctx = ev.ctx;
    int before = ctx.currentSamples;
    double[] param = a.param() == null ? null : ev.scalarValues(a.param());
    List<EvalSeries> in = ev.eval(a.expr());

    Set<String> keySet = new HashSet<>(grouping);
    if (a.without()) {
      keySet.add(Labels.METRIC_NAME);
    }
    int[] groupOf = new int[in.size()];
    List<Labels> groupLabels = new ArrayList<>();
    if (!a.without() && grouping.size() == 1) {
      groupByOneLabel(in, grouping.get(0), groupOf, groupLabels);
    } else {
      Map<Labels, Integer> groupIndex = new HashMap<>();
      for (int i = 0; i < in.size(); i++) {
        Labels l = in.get(i).labels;
        Labels key =
            a.without()
                ? l.without(keySet)
                : grouping.isEmpty() ? Labels.EMPTY : l.keepOnly(keySet);
        Integer g = groupIndex.get(key);
        if (g == null) {
          g = groupLabels.size();
          groupIndex.put(key, g);
          groupLabels.add(key);
        }
        groupOf[i] = g;
      }
    }
    List<EvalSeries> out;
    if (op == AggregateOp.TOPK || op == AggregateOp.BOTTOMK) {
      out = TopK.eval(ev, op, param, in, groupOf, groupLabels.size());
    } else {
      if (op == AggregateOp.QUANTILE) {
        quantileWarnings(ctx, param);
      }
      out =
          SeriesFold.supports(op)
              ? SeriesFold.fold(ev, op, in, groupOf, groupLabels)
              : fold(ev, op, param, in, groupOf, groupLabels);
    }
    int total = 0;
    for (EvalSeries s : out) {
      total += s.n;
    }
    ctx.currentSamples = before + total;
    return out;
  }

  /**
   * Groups by one label ({@code by (pod)}, the dashboard's usual case) keyed by the label's value,
   * so no key labels are built for series of a group already seen: the same groups, in the same
   * order of first appearance, with the same labels as {@code keepOnly} gives (just that label, or
   * none for series without it).
   */
  private static void groupByOneLabel(
      List<EvalSeries> in, String name, int[] groupOf, List<Labels> groupLabels) {
    Map<String, Integer> groupIndex = new HashMap<>();
    for (int i = 0; i < in.size(); i++) {
      String value = in.get(i).labels.get(name);
      Integer g = groupIndex.get(value);
      if (g == null) {
        g = groupLabels.size();
        groupIndex.put(value, g);
        groupLabels.add(value.isEmpty() ? Labels.EMPTY : Labels.of(name, value));
      }
      groupOf[i] = g;
    }
  }

  private static void quantileWarnings(QueryContext ctx, double[] param) {
    boolean nan = false;
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    for (double q : param) {
      if (Double.isNaN(q)) {
        nan = true;
      } else {
        max = Math.max(max, q);
        min = Math.min(min, q);
      }
    }
    if (nan) {
      ctx.warn("quantile value should be between 0 and 1, got NaN");
    }
    if (max > 1) {
      ctx.warn("quantile value should be between 0 and 1, got " + GoFormat.g(max));
    }
    if (min < 0) {
      ctx.warn("quantile value should be between 0 and 1, got " + GoFormat.g(min));
    }
  }

  /**
   * sum, avg, count, min, max, group, stddev, stdvar, quantile, step by step as Prometheus's {@code
   * rangeEvalAgg}. Queries use it for quantile; {@link SeriesFold} computes the others the same way
   * series by series, and tests hold the two to identical results.
   */
  static List<EvalSeries> fold(
      Evaluator ev,
      AggregateOp op,
      double[] param,
      List<EvalSeries> in,
      int[] groupOf,
      List<Labels> groupLabels) {
    int nGroups = groupLabels.size();
    double[] value = new double[nGroups];
    double[] kahanC = new double[nGroups];
    double[] mean = new double[nGroups];
    double[] count = new double[nGroups];
    boolean[] seen = new boolean[nGroups];
    boolean[] incremental = new boolean[nGroups];
    boolean[] dropName = new boolean[nGroups];
    double[][] values = op == AggregateOp.QUANTILE ? new double[nGroups][] : null;
    int[] nValues = op == AggregateOp.QUANTILE ? new int[nGroups] : null;
    EvalSeries[] out = new EvalSeries[nGroups];
    int[] cursor = new int[in.size()];
    double[] acc = new double[2];
    int step = -1;
    for (long ts = ev.start; ts <= ev.end; ts += ev.interval) {
      step++;
      ev.ctx.checkDeadline();
      Arrays.fill(seen, false);
      for (int si = 0; si < in.size(); si++) {
        EvalSeries s = in.get(si);
        int c = cursor[si];
        if (c >= s.n || s.t[c] != ts) {
          continue;
        }
        cursor[si] = c + 1;
        double f = s.v[c];
        int g = groupOf[si];
        if (!seen[g]) {
          seen[g] = true;
          value[g] = f;
          mean[g] = f;
          kahanC[g] = 0;
          count[g] = 1;
          incremental[g] = false;
          dropName[g] = s.dropName;
          switch (op) {
            case STDVAR:
            case STDDEV:
              value[g] = Double.isNaN(f) || Double.isInfinite(f) ? Double.NaN : 0;
              break;
            case QUANTILE:
              if (values[g] == null) {
                values[g] = new double[8];
              }
              values[g][0] = f;
              nValues[g] = 1;
              break;
            case GROUP:
              value[g] = 1;
              break;
            default:
              break;
          }
          continue;
        }
        if (s.dropName) {
          dropName[g] = true;
        }
        switch (op) {
          case SUM:
            Kahan.inc(f, value[g], kahanC[g], acc);
            value[g] = acc[0];
            kahanC[g] = acc[1];
            break;
          case AVG:
            count[g]++;
            if (!incremental[g]) {
              Kahan.inc(f, value[g], kahanC[g], acc);
              if (!Double.isInfinite(acc[0])) {
                value[g] = acc[0];
                kahanC[g] = acc[1];
                break;
              }
              // The sum would overflow: continue with an incremental mean.
              incremental[g] = true;
              mean[g] = value[g] / (count[g] - 1);
              kahanC[g] /= count[g] - 1;
            }
            double q = (count[g] - 1) / count[g];
            Kahan.inc(f / count[g], q * mean[g], q * kahanC[g], acc);
            mean[g] = acc[0];
            kahanC[g] = acc[1];
            break;
          case GROUP:
            break;
          case MAX:
            if (value[g] < f || Double.isNaN(value[g])) {
              value[g] = f;
            }
            break;
          case MIN:
            if (value[g] > f || Double.isNaN(value[g])) {
              value[g] = f;
            }
            break;
          case COUNT:
            count[g]++;
            break;
          case STDVAR:
          case STDDEV:
            count[g]++;
            double delta = f - mean[g];
            mean[g] += delta / count[g];
            value[g] += delta * (f - mean[g]);
            break;
          case QUANTILE:
            if (nValues[g] == values[g].length) {
              values[g] = Arrays.copyOf(values[g], nValues[g] * 2);
            }
            values[g][nValues[g]++] = f;
            break;
          default:
            throw new IllegalStateException("not a folding aggregation: " + op);
        }
      }
      for (int g = 0; g < nGroups; g++) {
        if (!seen[g]) {
          continue;
        }
        double r;
        switch (op) {
          case AVG:
            r = incremental[g] ? mean[g] + kahanC[g] : value[g] / count[g] + kahanC[g] / count[g];
            break;
          case COUNT:
            r = count[g];
            break;
          case STDVAR:
            r = value[g] / count[g];
            break;
          case STDDEV:
            r = Math.sqrt(value[g] / count[g]);
            break;
          case QUANTILE:
            r = Quantiles.quantile(param[step], values[g], nValues[g]);
            break;
          case SUM:
            r = value[g] + kahanC[g];
            break;
          default:
            r = value[g];
        }
        if (out[g] == null) {
          out[g] = new EvalSeries(groupLabels.get(g), Math.min(ev.numSteps, 64));
        }
        out[g].add(ts, canonicalNaN(r));
        out[g].dropName = dropName[g];
      }
    }
    List<EvalSeries> res = new ArrayList<>(nGroups);
    for (EvalSeries s : out) {
      if (s != null) {
        res.add(s);
      }
    }
    return res;
  }

  /**
   * Any NaN as {@link Double#NaN}. Which NaN an operation yields is not fixed: x86 makes {@code Inf
   * - Inf} the negative "default" NaN and, given two NaNs, returns the first operand's, and the JIT
   * may swap the operands of {@code a + b} (the Java spec leaves NaN bits unspecified). So the same
   * fold, interpreted or compiled, step-major or series-major, could return NaNs differing in the
   * sign bit. Prometheus prints every NaN alike; one NaN keeps the two folds bit-identical.
   */
  static double canonicalNaN(double r) {
    return r != r ? Double.NaN : r;
  }

  private static List<EvalSeries> countValues(
      Evaluator ev, AggregateExpr a, List<String> grouping) {
    String valueLabel = ((StringLiteral) Functions.unwrap(a.param())).value();
    if (!LabelNames.isValidLabelName(valueLabel)) {
      throw new QueryException("invalid label name " + GoQuote.quote(valueLabel));
    }
    Set<String> keySet = new HashSet<>(grouping);
    if (!a.without()) {
      keySet.add(valueLabel);
    } else {
      keySet.add(Labels.METRIC_NAME);
    }
    boolean without = a.without();
    Expr expr = a.expr();
    return ev.rangeEval(
        (in, ts, out) -> {
          Map<Labels, int[]> counts = new LinkedHashMap<>();
          StepVector v = in[0];
          for (int i = 0; i < v.n; i++) {
            Labels l = v.labels[i].toBuilder().set(valueLabel, GoFormat.shortest(v.v[i])).build();
            Labels key = without ? l.without(keySet) : l.keepOnly(keySet);
            counts.computeIfAbsent(key, k -> new int[1])[0]++;
          }
          for (Map.Entry<Labels, int[]> e : counts.entrySet()) {
            out.add(e.getKey(), e.getValue()[0], false);
          }
        },
        expr);
  }
}
