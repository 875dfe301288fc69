package dev.infermon.promql.parser;

import java.util.ArrayList;
import java.util.List;

/**
 * The direct sub-expressions of an expression, in evaluation order, for walks over the tree: the
 * one place that knows which node has which children. Walks that must not depend on the stack (deep
 * expressions, see {@link Nesting}) push these on a stack of their own. Stateless.
 */
public final class Children {
  private Children() {}

  /** A new, modifiable list of {@code e}'s children; empty for a leaf. */
  public static List<Expr> of(Expr e) {
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
