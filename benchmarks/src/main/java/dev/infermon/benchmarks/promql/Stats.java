package dev.infermon.benchmarks.promql;

import java.util.Arrays;
import java.util.Locale;

/** Figures of timed rounds, nanoseconds in, as the side-by-side tables print them. */
final class Stats {
  private Stats() {}

  static long[] sum(long[] a, long[] b) {
    long[] out = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i] + b[i];
    }
    return out;
  }

  /** Median (min) in milliseconds, two decimals. */
  static String ms(long[] nanos) {
    return String.format(
        Locale.ROOT,
        "%.2f (%.2f)",
        median(nanos) / 1e6,
        Arrays.stream(nanos).min().orElse(0) / 1e6);
  }

  static double median(long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
  }

  static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }
}
