package dev.infermon.simulator.text;

import java.util.Arrays;

/**
 * A classic Prometheus histogram: upper bounds (without {@code +Inf}), a count per bucket, the sum.
 * {@code le} is inclusive, as in prometheus_client ({@code value <= bound}). Not thread-safe.
 */
public final class Histogram {
  private final double[] bounds;
  private final String[] leLabels;
  private final long[] counts; // per bucket, the last one is +Inf
  private double sum;
  private long count;

  /**
   * A histogram over strictly increasing finite {@code bounds}.
   *
   * @throws IllegalArgumentException naming the first bound out of order
   */
  public Histogram(double[] bounds) {
    for (int i = 0; i < bounds.length; i++) {
      if (!Double.isFinite(bounds[i]) || (i > 0 && bounds[i] <= bounds[i - 1])) {
        throw new IllegalArgumentException("bucket bound " + i + " out of order: " + bounds[i]);
      }
    }
    this.bounds = bounds.clone();
    this.counts = new long[bounds.length + 1];
    this.leLabels = new String[bounds.length + 1];
    for (int i = 0; i < bounds.length; i++) {
      leLabels[i] = PyFloat.format(bounds[i]);
    }
    leLabels[bounds.length] = "+Inf";
  }

  /** Observes one value. */
  public void observe(double v) {
    observe(v, 1, v);
  }

  /**
   * Observes {@code n} values equal to {@code v} at once, adding {@code sumDelta} to the sum
   * (SGLang records a chunk of n tokens this way: the interval over n in one bucket, the whole
   * interval in the sum).
   */
  public void observe(double v, long n, double sumDelta) {
    int i = Arrays.binarySearch(bounds, v);
    int bucket = i >= 0 ? i : -i - 1;
    counts[bucket] += n;
    count += n;
    sum += sumDelta;
  }

  /**
   * Adds another histogram's observations (same bounds), as a process-wide metric sums its sources.
   *
   * @throws IllegalArgumentException if the bounds differ
   */
  public void add(Histogram other) {
    if (!Arrays.equals(bounds, other.bounds)) {
      throw new IllegalArgumentException("cannot add histograms with different bounds");
    }
    for (int i = 0; i < counts.length; i++) {
      counts[i] += other.counts[i];
    }
    count += other.count;
    sum += other.sum;
  }

  /** The upper bounds, without {@code +Inf}. */
  public double[] bounds() {
    return bounds.clone();
  }

  /** How many bounds (without {@code +Inf}). */
  public int size() {
    return bounds.length;
  }

  /** The bound at {@code i}; {@code i == size()} is {@code +Inf}. */
  public double bound(int i) {
    return i == bounds.length ? Double.POSITIVE_INFINITY : bounds[i];
  }

  /** The {@code le} label of bucket {@code i} as prometheus_client writes it ({@code 1e+06}). */
  public String le(int i) {
    return leLabels[i];
  }

  /** The cumulative count of bucket {@code i} ({@code i == size()} is {@code +Inf}). */
  public long cumulative(int i) {
    long c = 0;
    for (int j = 0; j <= i; j++) {
      c += counts[j];
    }
    return c;
  }

  /** Writes the cumulative counts of all buckets, {@code +Inf} last, into {@code out}. */
  public void cumulativeInto(long[] out) {
    long c = 0;
    for (int j = 0; j < counts.length; j++) {
      c += counts[j];
      out[j] = c;
    }
  }

  /** The number of observations. */
  public long count() {
    return count;
  }

  /** The sum of the observations. */
  public double sum() {
    return sum;
  }
}
