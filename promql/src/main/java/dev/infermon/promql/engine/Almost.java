package dev.infermon.promql.engine;

/** Prometheus's {@code util/almost}: relative float comparison. Stateless. */
public final class Almost {
  private static final double MIN_NORMAL = Double.MIN_NORMAL;

  private Almost() {}

  /**
   * True when {@code a} and {@code b} differ by less than {@code epsilon} relative to their
   * magnitude; NaN equals NaN, and a staleness marker only equals another one.
   */
  public static boolean equal(double a, double b, double epsilon) {
    boolean sa = dev.infermon.model.value.StaleNaN.is(a);
    boolean sb = dev.infermon.model.value.StaleNaN.is(b);
    if (sa || sb) {
      return sa && sb;
    }
    if (Double.isNaN(a) && Double.isNaN(b)) {
      return true;
    }
    if (a == b) {
      return true;
    }
    double absSum = Math.abs(a) + Math.abs(b);
    double diff = Math.abs(a - b);
    if (a == 0 || b == 0 || absSum < MIN_NORMAL) {
      return diff < epsilon * MIN_NORMAL;
    }
    return diff / Math.min(absSum, Double.MAX_VALUE) < epsilon;
  }
}
