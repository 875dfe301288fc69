package dev.infermon.simulator.tgi;

/** TGI's bucket bounds, as router/src/server.rs builds them (db931fcf). */
final class TgiBuckets {
  private TgiBuckets() {}

  /**
   * Every family ending in {@code duration}: {@code value = 0.0001}, then {@code value *= 1.5}
   * before each of 35 pushes (0.00015 … 145.6 s), multiplied in the same order so the bounds are
   * the same doubles.
   */
  static final double[] DURATION = duration();

  /** {@code tgi_batch_next_size}: 1, 2, … 1024. */
  static final double[] BATCH_SIZE = batchSize();

  private static double[] duration() {
    double[] b = new double[35];
    double value = 0.0001;
    for (int i = 0; i < b.length; i++) {
      value *= 1.5;
      b[i] = value;
    }
    return b;
  }

  private static double[] batchSize() {
    double[] b = new double[1024];
    for (int i = 0; i < b.length; i++) {
      b[i] = i + 1;
    }
    return b;
  }

  /** The token histograms: {@code (max / 100.0) * (x + 1)} for x in 0..100. */
  static double[] linear(int max) {
    double[] b = new double[100];
    for (int x = 0; x < b.length; x++) {
      b[x] = (max / 100.0) * (x + 1);
    }
    return b;
  }
}
