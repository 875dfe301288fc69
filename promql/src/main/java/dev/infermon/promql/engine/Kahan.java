package dev.infermon.promql.engine;

/** Kahan-Neumaier compensated summation, as Prometheus's {@code kahanSumInc}. Stateless. */
final class Kahan {
  private Kahan() {}

  /**
   * Adds {@code inc} to {@code sum} with compensation {@code c}; writes the new sum to {@code
   * out[0]} and the new compensation to {@code out[1]} (an out-array avoids allocating a pair).
   */
  static void inc(double inc, double sum, double c, double[] out) {
    double t = sum + inc;
    if (Double.isInfinite(t)) {
      c = 0;
    } else if (Math.abs(sum) >= Math.abs(inc)) {
      c += (sum - t) + inc;
    } else {
      c += (inc - t) + sum;
    }
    out[0] = t;
    out[1] = c;
  }
}
