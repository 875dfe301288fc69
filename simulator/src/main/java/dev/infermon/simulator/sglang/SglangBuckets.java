package dev.infermon.simulator.sglang;

/**
 * SGLang's real bucket bounds, from {@code python/sglang/srt/metrics/collector.py} at 00ae9c1
 * (≈v0.5.9); see ../shared/research/sglang.md §2.3.
 */
final class SglangBuckets {
  private SglangBuckets() {}

  /** SGLang time to first token (since v0.4.5). */
  static final double[] SGLANG_TTFT = {
    0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400
  };

  /** SGLang inter-token latency. */
  static final double[] SGLANG_ITL = {
    0.002, 0.004, 0.006, 0.008, 0.010, 0.015, 0.020, 0.025, 0.030, 0.035, 0.040, 0.060, 0.080,
    0.100, 0.200, 0.400, 0.600, 0.800, 1.000, 2.000, 4.000, 6.000, 8.000
  };

  /** SGLang end-to-end latency. */
  static final double[] SGLANG_E2E = {
    0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400, 600, 1200, 1800, 2400
  };

  /** SGLang scheduler queue time (v0.5.3–v0.5.11). */
  static final double[] SGLANG_QUEUE_TIME = {
    0.0, 0.1, 0.2, 0.5, 1, 2, 3, 4, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400,
    500, 600, 700, 800, 900, 1000, 1200, 1400, 1600, 1800, 2000, 2500, 3000
  };

  /**
   * SGLang per-stage request latency (v0.5.3+): {@code exponential_buckets(start=0.001, width=1.62,
   * length=30)}, 1 ms to about 1191 s (collector.py, {@code per_stage_req_latency_seconds}).
   */
  static final double[] SGLANG_PER_STAGE = exponential(0.001, 1.62, 30);

  private static double[] exponential(double start, double width, int length) {
    double[] b = new double[length];
    for (int i = 0; i < length; i++) {
      b[i] = start * Math.pow(width, i);
    }
    return b;
  }

  /** SGLang prompt/generation token-length histograms (default rule). */
  static final double[] SGLANG_TOKENS = {
    100, 300, 500, 700, 1000, 1500, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 12000,
    15000, 20000, 22000, 25000, 30000, 35000, 40000, 66000, 99000, 132000, 300000, 600000, 900000,
    1100000
  };

  /** SGLang retractions per request. */
  static final double[] SGLANG_RETRACTIONS = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 75, 100
  };

  /**
   * The PD prefill side's KV transfer latency histogram in ms (v0.5.10+, {@code
   * kv_transfer_latency_ms}; metrics_collector.py after 0.5.11, 016d8605).
   */
  static final double[] SGLANG_KV_TRANSFER_LATENCY_MS = {
    1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000
  };

  /** KV transfer speed in GB/s (v0.5.10+, {@code kv_transfer_speed_gb_s}). */
  static final double[] SGLANG_KV_TRANSFER_SPEED = {0.1, 0.5, 1, 5, 10, 25, 50, 100, 200, 400};

  /** KV transfer bootstrap and allocation waits in ms (v0.5.10+). */
  static final double[] SGLANG_KV_TRANSFER_WAIT_MS = {
    1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500
  };

  /** KV transfer size in MB (v0.5.10+, {@code kv_transfer_total_mb}). */
  static final double[] SGLANG_KV_TRANSFER_MB = {1, 5, 10, 50, 100, 500, 1000, 5000, 10000};
}
