package dev.infermon.simulator.trtllm;

/**
 * The collector's default bucket bounds (NVIDIA/TensorRT-LLM {@code
 * tensorrt_llm/metrics/collector.py} at 050f80de; the request-latency ones are vLLM's, which the
 * collector was adapted from).
 */
final class TrtllmBuckets {
  private TrtllmBuckets() {}

  /** End-to-end, queue, decode and inference time. */
  static final double[] LONG_REQUEST = {
    0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0,
    480.0, 960.0, 1920.0, 7680.0
  };

  static final double[] TTFT = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    20.0, 40.0, 80.0, 160.0, 640.0, 2560.0
  };

  static final double[] TPOT = {
    0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0,
    40.0, 80.0
  };

  static final double[] PREFILL = {
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0,
    640.0, 2560.0
  };

  static final double[] CACHED_TOKENS = {0, 64, 128, 256, 512, 1024, 2048, 4096, 8192};

  static final double[] PREFILL_BATCH_TOKENS = {
    64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
  };
}
