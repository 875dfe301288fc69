package dev.infermon.promql.promqltest;

import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.AtModifier;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.ParenExpr;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.UnaryExpr;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The harness's {@code atModifierTestCases}: pins every selector and subquery without an {@code @}
 * to the eval time (subquery insides are left alone), unless the expression uses a function whose
 * result depends on the evaluation time itself. Stateless.
 */
final class AtInjector {
  private static final Set<String> UNSAFE =
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
          "timestamp",
          // Depend on the query's time range, which pinning does not change.
          "start",
          "end",
          "range",
          "step");

  private AtInjector() {}

  /**
   * The pinned expression, or null when it contains a time-dependent function or nothing to pin.
   */
  static Expr inject(Expr e, long ts) {
    boolean[] unsafe = new boolean[1];
    Expr out = walk(e, AtModifier.at(ts), unsafe);
    return unsafe[0] || out.equals(e) ? null : out;
  }

  private static Expr walk(Expr e, AtModifier at, boolean[] unsafe) {
    if (e instanceof VectorSelector) {
      VectorSelector vs = (VectorSelector) e;
      return vs.at() != null ? vs : new VectorSelector(vs.name(), vs.matchers(), vs.offsetMs(), at);
    }
    if (e instanceof MatrixSelector) {
      MatrixSelector m = (MatrixSelector) e;
      return new MatrixSelector((VectorSelector) walk(m.selector(), at, unsafe), m.rangeMs());
    }
    if (e instanceof SubqueryExpr) {
      SubqueryExpr s = (SubqueryExpr) e;
      return s.at() != null
          ? s
          : new SubqueryExpr(s.expr(), s.rangeMs(), s.stepMs(), s.offsetMs(), at);
    }
    if (e instanceof Call) {
      Call c = (Call) e;
      unsafe[0] |= UNSAFE.contains(c.function().name());
      List<Expr> args = new ArrayList<>();
      for (Expr a : c.args()) {
        args.add(walk(a, at, unsafe));
      }
      return new Call(c.function(), args);
    }
    if (e instanceof AggregateExpr) {
      AggregateExpr a = (AggregateExpr) e;
      return new AggregateExpr(
          a.op(),
          walk(a.expr(), at, unsafe),
          a.param() == null ? null : walk(a.param(), at, unsafe),
          a.grouping(),
          a.without());
    }
    if (e instanceof BinaryExpr) {
      BinaryExpr b = (BinaryExpr) e;
      return new BinaryExpr(
          b.op(),
          walk(b.lhs(), at, unsafe),
          walk(b.rhs(), at, unsafe),
          b.matching(),
          b.returnBool());
    }
    if (e instanceof ParenExpr) {
      return new ParenExpr(walk(((ParenExpr) e).expr(), at, unsafe));
    }
    if (e instanceof UnaryExpr) {
      UnaryExpr u = (UnaryExpr) e;
      return new UnaryExpr(u.op(), walk(u.expr(), at, unsafe));
    }
    return e;
  }
}
