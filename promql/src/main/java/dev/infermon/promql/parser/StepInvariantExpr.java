package dev.infermon.promql.parser;

/**
 * Marks a subtree whose value is the same at every step of a range query (for example one with
 * {@code @}); the engine evaluates it once. Introduced by the engine's preprocessing, never by the
 * parser, and printed as its inner expression.
 */
public record StepInvariantExpr(Expr expr) implements Expr {
  @Override
  public ValueType type() {
    return ExprTypes.of(this);
  }
}
