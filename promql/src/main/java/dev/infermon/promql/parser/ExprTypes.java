package dev.infermon.promql.parser;

import java.util.ArrayDeque;

/**
 * The type of the nodes whose type is their operands': parentheses, unary operators, step
 * invariants and binary operators. Found with a stack of its own, so a deep tree (a long chain, a
 * right-associative {@code 1 ^ 1 ^ ...}, deep parentheses) cannot overflow the caller's. Stateless.
 */
final class ExprTypes {
  private ExprTypes() {}

  static ValueType of(Expr e) {
    while (isWrapper(e)) {
      e = inner(e);
    }
    if (!(e instanceof BinaryExpr)) {
      return e.type();
    }
    // Scalar when every operand is: look for one that is not.
    ArrayDeque<Expr> todo = new ArrayDeque<>();
    todo.push(e);
    while (!todo.isEmpty()) {
      Expr n = todo.pop();
      if (n instanceof BinaryExpr) {
        todo.push(((BinaryExpr) n).rhs());
        todo.push(((BinaryExpr) n).lhs());
      } else if (isWrapper(n)) {
        todo.push(inner(n));
      } else if (n.type() != ValueType.SCALAR) {
        return ValueType.VECTOR;
      }
    }
    return ValueType.SCALAR;
  }

  private static boolean isWrapper(Expr e) {
    return e instanceof ParenExpr || e instanceof UnaryExpr || e instanceof StepInvariantExpr;
  }

  private static Expr inner(Expr e) {
    if (e instanceof ParenExpr) {
      return ((ParenExpr) e).expr();
    }
    if (e instanceof UnaryExpr) {
      return ((UnaryExpr) e).expr();
    }
    return ((StepInvariantExpr) e).expr();
  }
}
