package dev.infermon.model.value;

/**
 * The staleness marker: a NaN with a specific bit pattern, distinct from any NaN a target can
 * expose. Comparisons must use the bits ({@link #is(double)}); {@code ==} never holds for NaN.
 */
public final class StaleNaN {
  /** The bit pattern Prometheus uses for stale markers ({@code value.StaleNaN}). */
  public static final long BITS = 0x7ff0000000000002L;

  /** The staleness marker as a double. */
  public static final double VALUE = Double.longBitsToDouble(BITS);

  private StaleNaN() {}

  /** True iff {@code v} is the staleness marker (an ordinary NaN is not). */
  public static boolean is(double v) {
    return Double.doubleToRawLongBits(v) == BITS;
  }
}
