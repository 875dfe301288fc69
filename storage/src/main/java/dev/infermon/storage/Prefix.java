package dev.infermon.storage;

import java.util.Arrays;

/**
 * A series' samples up to a time, decoded once and shared by {@link SharedSelects}' readers:
 * immutable after {@link #read}, so any number of iterators may read it at once.
 */
final class Prefix {
  final long[] t;
  final double[] v;
  final int n;

  private Prefix(long[] t, double[] v, int n) {
    this.t = t;
    this.v = v;
    this.n = n;
  }

  /**
   * What {@link #read} read, and whether the iterator it read from sits on a sample after the time
   * (false: it ran out).
   */
  record Read(Prefix prefix, boolean more) {}

  /**
   * Reads {@code it}'s samples up to {@code upTo} (from its start) and leaves it where {@code
   * next()} calls would: on the first sample after {@code upTo}, if there is one.
   */
  static Read read(SampleIterator it, long upTo) {
    long[] t = new long[64];
    double[] v = new double[64];
    int n = 0;
    while (true) {
      int len = t.length - n;
      int r = it.nextBatch(t, v, n, len, upTo);
      int got = r < 0 ? ~r : r;
      n += got;
      if (r < 0 || got < len) {
        // trimmed: a prefix is held for the whole scope
        Prefix p = new Prefix(Arrays.copyOf(t, n), Arrays.copyOf(v, n), n);
        return new Read(p, r >= 0);
      }
      t = Arrays.copyOf(t, t.length * 2);
      v = Arrays.copyOf(v, v.length * 2);
    }
  }
}
