package dev.infermon.promql.parser;

/** A range-vector selector: a vector selector with a range, {@code foo[5m]}. */
public record MatrixSelector(VectorSelector selector, long rangeMs) implements Expr {
  @Override
  public ValueType type() {
    return ValueType.MATRIX;
  }
}
