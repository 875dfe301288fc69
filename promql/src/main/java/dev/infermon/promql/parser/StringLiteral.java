package dev.infermon.promql.parser;

/** A string literal, unescaped. */
public record StringLiteral(String value) implements Expr {
  @Override
  public ValueType type() {
    return ValueType.STRING;
  }
}
