package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.AggregateOp;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.ParenExpr;
import dev.infermon.promql.parser.Printer;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.VectorSelector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How metrics are used: {@code rate()} on a gauge, a counter used as a level, {@code
 * histogram_quantile} over an aggregation without {@code le}, a sum over duplicate series (SGLang's
 * TP ranks) or over a ratio (vLLM's data-parallel engines), and rate windows shorter than four
 * scrape intervals.
 */
final class FunctionChecks {
  static final Set<String> COUNTER_FUNCTIONS = Set.of("rate", "irate", "increase", "resets");
  static final Set<String> WINDOWED = Set.of("rate", "increase");

  /** Functions and aggregations for which a raw counter is fine: they ignore its value. */
  private static final Set<String> VALUE_BLIND =
      Set.of(
          "absent",
          "absent_over_time",
          "present_over_time",
          "count_over_time",
          "timestamp",
          "changes",
          "resets",
          "last_over_time",
          "label_join",
          "label_replace");

  private FunctionChecks() {}

  static void run(QueryScope s) {
    Set<String> counterReported = new HashSet<>();
    for (ExprWalk.Node n : s.nodes) {
      Expr e = n.expr();
      if (e instanceof Call) {
        call(s, (Call) e);
      } else if (e instanceof AggregateExpr) {
        sum(s, (AggregateExpr) e);
      } else if (e instanceof VectorSelector) {
        rawCounter(s, (VectorSelector) e, n, counterReported);
      }
    }
  }

  private static void call(QueryScope s, Call c) {
    String fn = c.function().name();
    if (COUNTER_FUNCTIONS.contains(fn) && !c.args().isEmpty()) {
      Expr arg = ExprWalk.unwrap(c.args().get(0));
      if (arg instanceof MatrixSelector) {
        MatrixSelector ms = (MatrixSelector) arg;
        VectorSelector vs = ms.selector();
        MetricInfo info = s.info(vs);
        if (info != null && info.gauge() && !declaredCounterToAvoid(info)) {
          s.report(
              CheckId.RATE_ON_GAUGE,
              s.at(vs),
              fn + "() of " + info.sample() + ", which is a gauge: the result is meaningless.",
              "use the gauge as it is, or avg_over_time()/deriv() over it",
              info.sample());
        }
        if (WINDOWED.contains(fn)) {
          window(s, fn, ms);
        }
      }
    }
    if (fn.equals("histogram_quantile") && c.args().size() == 2) {
      Expr inner = ExprWalk.unwrap(c.args().get(1));
      if (inner instanceof AggregateExpr) {
        AggregateExpr a = (AggregateExpr) inner;
        boolean dropsLe = a.without() ? a.grouping().contains("le") : !a.grouping().contains("le");
        if (dropsLe) {
          List<String> by = new ArrayList<>(a.without() ? List.of() : a.grouping());
          by.add("le");
          VectorSelector vs = first(a);
          s.report(
              CheckId.QUANTILE_WITHOUT_LE,
              vs == null ? s.query.start() : s.at(vs),
              "histogram_quantile over "
                  + a.op().keyword()
                  + (a.grouping().isEmpty()
                      ? ""
                      : (a.without() ? " without (" : " by (")
                          + String.join(", ", a.grouping())
                          + ")")
                  + ", which drops the le label: the quantile has no buckets to read.",
              a.without()
                  ? "take le out of without (...)"
                  : a.op().keyword() + " by (" + String.join(", ", by) + ")",
              "le");
        }
      }
    }
  }

  private static void window(QueryScope s, String fn, MatrixSelector ms) {
    Duration range = Duration.ofMillis(ms.rangeMs());
    Duration min = s.options.scrapeInterval().multipliedBy(4);
    if (range.compareTo(min) < 0) {
      s.report(
          CheckId.SHORT_RATE_WINDOW,
          s.at(ms.selector()),
          fn
              + "() over ["
              + format(range)
              + "] with a "
              + format(s.options.scrapeInterval())
              + " scrape interval: fewer than four samples per window give gaps after a missed"
              + " scrape and noisy values.",
          "use [" + format(min) + "] or more ($__rate_interval in Grafana)",
          format(range));
    }
  }

  /** A sum over SGLang's per-rank duplicates, or over a ratio gauge. */
  private static void sum(QueryScope s, AggregateExpr a) {
    if (a.op() != AggregateOp.SUM) {
      return;
    }
    for (VectorSelector vs : direct(a.expr())) {
      MetricInfo info = s.info(vs);
      if (info == null || info.hit() == null || !info.exposed()) {
        continue;
      }
      List<String> dupes = new ArrayList<>();
      for (String l : info.hit().engine().dedupeLabels()) {
        boolean carried =
            info.labels() != null ? info.labels().contains(l) : catalogHas(info.hit(), l);
        boolean pinned = vs.matchers().stream().anyMatch(m -> m.name().equals(l) && !m.matches(""));
        boolean kept = a.without() != a.grouping().contains(l);
        if (carried && !pinned && !kept && !l.equals("pid")) {
          dupes.add(l);
        }
      }
      MetricEntry entry = info.hit().latest();
      if (!dupes.isEmpty()) {
        s.report(
            CheckId.SUM_OVER_DUPLICATES,
            s.at(vs),
            "sum over "
                + info.sample()
                + ", which every "
                + String.join("/", dupes)
                + " reports with the same value: the sum counts each batch once per rank.",
            "collapse the ranks first: sum"
                + grouping(a)
                + " (max without ("
                + String.join(", ", info.hit().engine().dedupeLabels())
                + ") ("
                + Printer.print(a.expr())
                + "))",
            info.sample());
      } else if (info.gauge() && "ratio".equals(entry.unit())) {
        s.report(
            CheckId.SUM_OVER_DUPLICATES,
            s.at(vs),
            "sum over "
                + info.sample()
                + ", a ratio: summed across data-parallel engines or pods it exceeds 1.",
            "use max" + grouping(a) + " instead of sum (an avg would hide a full engine)",
            info.sample());
      }
    }
  }

  static boolean catalogHas(Reference.CatalogHit hit, String label) {
    return hit.latest().labels().stream().anyMatch(l -> l.name().equals(label));
  }

  static String grouping(AggregateExpr a) {
    if (a.grouping().isEmpty() && !a.without()) {
      return "";
    }
    return (a.without() ? " without (" : " by (") + String.join(", ", a.grouping()) + ")";
  }

  /**
   * The selectors an aggregation sees directly: through parentheses and functions that keep series
   * apart, but not through another aggregation or a binary operation.
   */
  static List<VectorSelector> direct(Expr e) {
    e = ExprWalk.unwrap(e);
    if (e instanceof VectorSelector) {
      return List.of((VectorSelector) e);
    }
    if (e instanceof MatrixSelector) {
      return List.of(((MatrixSelector) e).selector());
    }
    if (e instanceof Call) {
      List<VectorSelector> out = new ArrayList<>();
      for (Expr arg : ((Call) e).args()) {
        out.addAll(direct(arg));
      }
      return out;
    }
    return List.of();
  }

  private static VectorSelector first(Expr e) {
    List<VectorSelector> all = ExprWalk.selectors(e);
    return all.isEmpty() ? null : all.get(0);
  }

  /**
   * A gauge its page types counter ({@code declared_type}) that the catalog says to avoid: the
   * misleading-gauge finding names the counter to rate instead, which is the whole fix.
   */
  private static boolean declaredCounterToAvoid(MetricInfo info) {
    return info.hit() != null
        && info.hit().entries().stream()
            .anyMatch(m -> m.declaredType() == MetricType.COUNTER && m.avoid() != null);
  }

  /** A counter (or histogram series) whose value is used as a level. */
  private static void rawCounter(
      QueryScope s, VectorSelector vs, ExprWalk.Node n, Set<String> reported) {
    Expr parent = n.parent();
    if (parent instanceof MatrixSelector || gainOverOffset(parent)) {
      return;
    }
    for (Expr a : n.ancestors()) {
      if (a instanceof SubqueryExpr) {
        return;
      }
      if (a instanceof Call && VALUE_BLIND.contains(((Call) a).function().name())) {
        return;
      }
      if (a instanceof AggregateExpr) {
        AggregateOp op = ((AggregateExpr) a).op();
        if (op == AggregateOp.COUNT || op == AggregateOp.GROUP || op == AggregateOp.COUNT_VALUES) {
          return;
        }
      }
    }
    MetricInfo info = s.info(vs);
    if (info == null || !info.cumulative() || !reported.add(info.sample())) {
      return;
    }
    s.report(
        CheckId.COUNTER_WITHOUT_RATE,
        s.at(vs),
        info.sample()
            + " is a counter: its raw value is a total since the process started and resets"
            + " on restart.",
        "use rate(" + info.sample() + "[5m]) or increase(" + info.sample() + "[1h])",
        info.sample());
  }

  /**
   * Whether {@code e} is {@code x - x offset d}: a counter's gain over {@code d}, as a heatmap's
   * count per step is written (rate would extrapolate), a use of the counter as a counter.
   */
  private static boolean gainOverOffset(Expr e) {
    if (!(e instanceof BinaryExpr) || ((BinaryExpr) e).op() != BinaryOp.SUB) {
      return false;
    }
    Expr l = unwrap(((BinaryExpr) e).lhs());
    Expr r = unwrap(((BinaryExpr) e).rhs());
    return l instanceof VectorSelector
        && r instanceof VectorSelector
        && ((VectorSelector) l).name().equals(((VectorSelector) r).name())
        && ((VectorSelector) l).matchers().equals(((VectorSelector) r).matchers())
        && ((VectorSelector) r).offsetMs() > ((VectorSelector) l).offsetMs();
  }

  private static Expr unwrap(Expr e) {
    while (e instanceof ParenExpr) {
      e = ((ParenExpr) e).expr();
    }
    return e;
  }

  /** A duration as Prometheus writes it ({@code 1m30s}). */
  static String format(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    long[] units = {86_400_000L, 3_600_000L, 60_000L, 1000L, 1L};
    String[] names = {"d", "h", "m", "s", "ms"};
    for (int i = 0; i < units.length; i++) {
      if (ms >= units[i]) {
        sb.append(ms / units[i]).append(names[i]);
        ms %= units[i];
      }
    }
    return sb.toString();
  }
}
