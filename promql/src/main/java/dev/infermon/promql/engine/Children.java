package dev.infermon.promql.engine;

import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.ParenExpr;
import dev.infermon.promql.parser.StepInvariantExpr;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.UnaryExpr;
import java.util.ArrayList;
import java.util.List;

/** The direct sub-expressions of an expression, for walks over the tree. Stateless. */
final class Children {
  private Children() {}

  static List<Expr> of(Expr e) {
    List<Expr> out = new ArrayList<>(2);
    if (e instanceof AggregateExpr) {
      AggregateExpr a = (AggregateExpr) e;
      if (a.param() != null) {
        out.add(a.param());
      }
      out.add(a.expr());
    } else if (e instanceof BinaryExpr) {
      out.add(((BinaryExpr) e).lhs());
      out.add(((BinaryExpr) e).rhs());
    } else if (e instanceof Call) {
      out.addAll(((Call) e).args());
    } else if (e instanceof MatrixSelector) {
      out.add(((MatrixSelector) e).selector());
    } else if (e instanceof SubqueryExpr) {
      out.add(((SubqueryExpr) e).expr());
    } else if (e instanceof ParenExpr) {
      out.add(((ParenExpr) e).expr());
    } else if (e instanceof UnaryExpr) {
      out.add(((UnaryExpr) e).expr());
    } else if (e instanceof StepInvariantExpr) {
      out.add(((StepInvariantExpr) e).expr());
    }
    return out;
  }
}
