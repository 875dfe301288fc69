package dev.infermon.simulator.vllm;

import java.util.ArrayList;
import java.util.List;

/**
 * vLLM's real bucket bounds. Sources: {@code vllm/v1/metrics/loggers.py} and the 0.11 and 2026-09
 * captures (V1), the 0.4.3 capture (V0); see ../shared/research/vllm.md §2.3–2.4.
 */
final class VllmBuckets {
  private VllmBuckets() {}

  /** vLLM V1 time to first token. */
  static final double[] VLLM_TTFT = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    20.0, 40.0, 80.0, 160.0, 640.0, 2560.0
  };

  /** vLLM V1 inter-token latency and per-request time per output token. */
  static final double[] VLLM_ITL = {
    0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0,
    40.0, 80.0
  };

  /** vLLM V1 request phases: e2e, queue, inference, prefill, decode. */
  static final double[] VLLM_REQUEST_LATENCY = {
    0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0,
    480.0, 960.0, 1920.0, 7680.0
  };

  /** vLLM tokens per engine step (V1). */
  static final double[] VLLM_ITERATION_TOKENS = {
    1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384
  };

  /** vLLM {@code n} (and V0 {@code best_of}). */
  static final double[] VLLM_PARAMS_N = {1, 2, 5, 10, 20};

  /** vLLM V0 (0.4.3) time to first token. */
  static final double[] VLLM_V0_TTFT = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0
  };

  /** vLLM V0 (0.4.3) time per output token. */
  static final double[] VLLM_V0_TPOT = {
    0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5
  };

  /** vLLM V0 (0.4.3) end-to-end latency. */
  static final double[] VLLM_V0_E2E = {1.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0};

  /** The prometheus-fastapi-instrumentator's high-resolution latency buckets (vLLM's http_*). */
  static final double[] HTTP_HIGHR = {
    0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0,
    7.5, 10.0, 30.0, 60.0
  };

  /** The instrumentator's per-handler latency buckets. */
  static final double[] HTTP_BY_HANDLER = {0.1, 0.5, 1.0};

  /**
   * vLLM's {@code build_1_2_5_buckets(max_model_len)}: 1, 2, 5, 10, 20, 50, ... up to the largest
   * value not above {@code max}.
   */
  static double[] oneTwoFive(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be >= 1, got " + max);
    }
    List<Double> out = new ArrayList<>();
    int[] mantissa = {1, 2, 5};
    for (long exp = 1; ; exp *= 10) {
      for (int m : mantissa) {
        long v = m * exp;
        if (v > max) {
          return out.stream().mapToDouble(Double::doubleValue).toArray();
        }
        out.add((double) v);
      }
    }
  }
}
