package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.AggregateOp;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.NumberLiteral;
import dev.infermon.promql.parser.Printer;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An {@code avg} across the series one pod splits a gauge into: vLLM's data-parallel engines
 * ({@code engine}), SGLang's DP-attention ranks ({@code dp_rank}), API-server processes ({@code
 * pid}, only one of which is non-zero). The average of a pod's shares is neither the pod's KV usage
 * (one full engine and one idle read 50%: use {@code max}) nor its load (four engines of a pod
 * count as four quarter-loaded pods: {@code sum} them first). Stateless.
 */
final class AggregationChecks {
  /** Labels that split one pod's value into shares. */
  private static final List<String> SPLITS = List.of("engine", "dp_rank", "pid");

  private static final Set<String> COUNTS =
      Set.of("requests", "tokens", "pages", "blocks", "preemptions", "keys", "items", "count");
  private static final Set<String> RATIOS = Set.of("ratio", "percent");

  /** Labels that name a pod: an aggregation keeping one averages within the pod. */
  private static final Set<String> POD = Set.of("pod", "instance", "exported_pod");

  private AggregationChecks() {}

  static void run(QueryScope s) {
    for (ExprWalk.Node n : s.nodes) {
      if (n.expr() instanceof AggregateExpr && ((AggregateExpr) n.expr()).op() == AggregateOp.AVG) {
        avg(s, (AggregateExpr) n.expr());
      }
    }
  }

  /**
   * The selectors an aggregation sees directly, also through arithmetic with a number ({@code x *
   * 100} is still a share per engine).
   */
  private static List<VectorSelector> scaled(Expr e) {
    e = ExprWalk.unwrap(e);
    if (e instanceof BinaryExpr) {
      BinaryExpr b = (BinaryExpr) e;
      if (!b.op().isComparison() && !b.op().isSetOperator()) {
        if (ExprWalk.unwrap(b.rhs()) instanceof NumberLiteral) {
          return scaled(b.lhs());
        }
        if (ExprWalk.unwrap(b.lhs()) instanceof NumberLiteral) {
          return scaled(b.rhs());
        }
      }
      return List.of();
    }
    return FunctionChecks.direct(e);
  }

  private static void avg(QueryScope s, AggregateExpr a) {
    for (VectorSelector vs : scaled(a.expr())) {
      MetricInfo info = s.info(vs);
      if (info == null || info.hit() == null || !info.exposed() || !info.gauge()) {
        continue;
      }
      String unit = info.hit().latest().unit();
      List<String> split = new ArrayList<>();
      for (String l : SPLITS) {
        boolean carried =
            info.labels() != null
                ? info.labels().contains(l)
                : FunctionChecks.catalogHas(info.hit(), l);
        boolean pinned = vs.matchers().stream().anyMatch(m -> m.name().equals(l) && !m.matches(""));
        boolean kept = a.without() != a.grouping().contains(l);
        if (carried && !pinned && !kept) {
          split.add(l);
        }
      }
      boolean byPid = split.equals(List.of("pid"));
      boolean ratio = RATIOS.contains(unit) || byPid;
      if (split.isEmpty() || !(ratio || COUNTS.contains(unit))) {
        continue;
      }
      boolean withinPod = !a.without() && a.grouping().stream().anyMatch(POD::contains);
      String op = ratio ? "max" : "sum";
      String shares = String.join("/", split);
      String why =
          byPid
              ? "one series per API-server process, only one of them non-zero"
              : ratio
                  ? "a share per " + shares + ": one full and one idle read as half full"
                  : "a share of the pod's load per "
                      + shares
                      + ": a pod split in four counts as"
                      + " four quarter-loaded ones";
      String fix;
      if (withinPod || a.without()) {
        fix = op + FunctionChecks.grouping(a) + " (" + Printer.print(a.expr()) + ")";
      } else {
        fix =
            op
                + " each pod first: avg"
                + FunctionChecks.grouping(a)
                + " ("
                + op
                + " by (namespace, pod) ("
                + Printer.print(a.expr())
                + "))";
      }
      s.report(
          CheckId.AVG_ACROSS_ENGINES,
          s.at(vs),
          "avg over " + info.sample() + ", " + why + ".",
          fix,
          info.sample());
    }
  }
}
