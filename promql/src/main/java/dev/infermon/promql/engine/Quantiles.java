package dev.infermon.promql.engine;

import java.util.Arrays;

/** The quantile of a set of values, as Prometheus's {@code quantile()}. Stateless. */
final class Quantiles {
  private Quantiles() {}

  /**
   * The q-quantile of the first {@code n} values (sorted in place), interpolating linearly at rank
   * {@code q * (n - 1)}. NaN for no values or NaN q; -Inf for q &lt; 0; +Inf for q &gt; 1.
   */
  static double quantile(double q, double[] values, int n) {
    if (n == 0 || Double.isNaN(q)) {
      return Double.NaN;
    }
    if (q < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (q > 1) {
      return Double.POSITIVE_INFINITY;
    }
    sortNaNFirst(values, n);
    double rank = q * (n - 1);
    double lowerIndex = Math.max(0, Math.floor(rank));
    double upperIndex = Math.min(n - 1, lowerIndex + 1);
    double weight = rank - Math.floor(rank);
    return values[(int) lowerIndex] * (1 - weight) + values[(int) upperIndex] * weight;
  }

  /** Ascending, with NaNs first (Prometheus's {@code vectorByValueHeap} order). */
  static void sortNaNFirst(double[] values, int n) {
    Arrays.sort(values, 0, n); // Java sorts NaN last
    int nan = 0;
    for (int i = n - 1; i >= 0 && Double.isNaN(values[i]); i--) {
      nan++;
    }
    if (nan > 0 && nan < n) {
      System.arraycopy(values, 0, values, nan, n - nan);
      Arrays.fill(values, 0, nan, Double.NaN);
    }
  }
}
