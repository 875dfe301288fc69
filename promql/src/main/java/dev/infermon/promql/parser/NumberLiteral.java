package dev.infermon.promql.parser;

/** A number: {@code 1}, {@code 1e3}, {@code 0x1f}, {@code Inf}, {@code NaN}, or a duration. */
public record NumberLiteral(double value) implements Expr {
  @Override
  public ValueType type() {
    return ValueType.SCALAR;
  }

  @Override
  public boolean equals(Object o) {
    // NaN literals compare equal to each other so that parse → print → parse is the identity.
    return o instanceof NumberLiteral
        && Double.doubleToLongBits(((NumberLiteral) o).value) == Double.doubleToLongBits(value);
  }

  @Override
  public int hashCode() {
    return Double.hashCode(value);
  }
}
