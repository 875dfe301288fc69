package dev.infermon.promql.engine;

import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.ParenExpr;
import dev.infermon.promql.parser.StepInvariantExpr;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.VectorSelector;
import java.util.List;
import java.util.Set;

/** Routes a function call to its implementation by kind of argument. Stateless. */
final class Functions {
  /**
   * Functions whose result depends on the evaluation time even when their arguments do not, so an
   * {@code @} on the arguments does not make the call step-invariant (Prometheus's {@code
   * AtModifierUnsafeFunctions}).
   */
  static final Set<String> AT_MODIFIER_UNSAFE =
      Set.of(
          "days_in_month",
          "day_of_month",
          "day_of_week",
          "day_of_year",
          "hour",
          "minute",
          "month",
          "year",
          "predict_linear",
          "time",
          "timestamp");

  /** Functions that order an instant vector; ineffective in range queries. */
  static final Set<String> SORTING =
      Set.of("sort", "sort_desc", "sort_by_label", "sort_by_label_desc");

  private Functions() {}

  static List<EvalSeries> eval(Evaluator ev, Call call) {
    String name = call.function().name();
    List<Expr> args = call.args();
    if (name.equals("timestamp")) {
      Expr arg = unwrap(args.get(0));
      if (arg instanceof VectorSelector) {
        // The sample's own time, not the step's: read it at selection.
        List<EvalSeries> m = Selectors.instantVector(ev, (VectorSelector) arg, true);
        return InstantFunctions.markNameDropped(ev, m);
      }
    }
    for (int i = 0; i < args.size(); i++) {
      Expr a = args.get(i);
      if (a instanceof MatrixSelector || a instanceof SubqueryExpr) {
        return RangeFunctions.eval(ev, call, i);
      }
    }
    return InstantFunctions.eval(ev, call);
  }

  /** The expression without parentheses and step-invariance markers around it. */
  static Expr unwrap(Expr e) {
    while (true) {
      if (e instanceof ParenExpr) {
        e = ((ParenExpr) e).expr();
      } else if (e instanceof StepInvariantExpr) {
        e = ((StepInvariantExpr) e).expr();
      } else {
        return e;
      }
    }
  }
}
