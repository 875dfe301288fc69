package dev.infermon.promql.value;

/**
 * A scalar result.
 *
 * @param timestampMs the evaluation time
 * @param value the value
 */
public record Scalar(long timestampMs, double value) implements Value {
  @Override
  public String resultType() {
    return "scalar";
  }

  @Override
  public boolean equals(Object o) {
    // NaN results compare equal so that results can be compared in tests.
    return o instanceof Scalar
        && ((Scalar) o).timestampMs == timestampMs
        && Double.doubleToLongBits(((Scalar) o).value) == Double.doubleToLongBits(value);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(timestampMs) * 31 + Double.hashCode(value);
  }
}
