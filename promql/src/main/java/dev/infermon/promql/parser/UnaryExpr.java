package dev.infermon.promql.parser;

/** Unary {@code -} or {@code +} ({@link BinaryOp#SUB} or {@link BinaryOp#ADD}). */
public record UnaryExpr(BinaryOp op, Expr expr) implements Expr {
  public UnaryExpr {
    if (op != BinaryOp.ADD && op != BinaryOp.SUB) {
      throw new IllegalArgumentException("unary operator must be + or -, got " + op.symbol());
    }
  }

  @Override
  public ValueType type() {
    return ExprTypes.of(this);
  }
}
