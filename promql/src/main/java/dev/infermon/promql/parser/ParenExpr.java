package dev.infermon.promql.parser;

/** An expression in parentheses (kept so the printer can reproduce them). */
public record ParenExpr(Expr expr) implements Expr {
  @Override
  public ValueType type() {
    return ExprTypes.of(this);
  }
}
