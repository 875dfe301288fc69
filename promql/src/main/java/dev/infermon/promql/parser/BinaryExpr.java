package dev.infermon.promql.parser;

/**
 * A binary operation.
 *
 * @param matching how vectors are matched; null when either side is a scalar
 * @param returnBool whether {@code bool} was given (comparisons only)
 */
public record BinaryExpr(
    BinaryOp op, Expr lhs, Expr rhs, VectorMatching matching, boolean returnBool) implements Expr {
  /** Scalar when every operand is, else vector. Asked without recursion ({@link ExprTypes}). */
  @Override
  public ValueType type() {
    return ExprTypes.of(this);
  }
}
