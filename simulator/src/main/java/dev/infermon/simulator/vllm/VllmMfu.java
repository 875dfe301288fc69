package dev.infermon.simulator.vllm;

/**
 * How the simulated vLLM grows its {@code --enable-mfu-metrics} counters: the ground truth a test
 * compares the dashboard's FLOP/s, model FLOPs utilisation and memory-bandwidth utilisation with.
 * vLLM estimates each engine step's work per GPU analytically from the model's shape ({@code
 * vllm/v1/metrics/perf.py}, vllm-project/vllm @ 00cee63e); the simulator, which has no shape, uses
 * the usual dense-transformer approximations over the weights one GPU holds: 2 FLOPs per weight per
 * token, every weight read once per step, and one token's KV entries written per token.
 *
 * @param flopsPerToken floating-point operations per scheduled token, per GPU
 * @param readBytesPerStep bytes read per engine step, per GPU (the GPU's weights)
 * @param writeBytesPerToken bytes written per scheduled token, per GPU (its KV entries)
 */
public record VllmMfu(double flopsPerToken, double readBytesPerStep, double writeBytesPerToken) {
  /**
   * KV bytes one token writes: a Llama-3-8B shape (32 layers, 8 KV heads of 128, K and V, BF16). A
   * fixed figure: the simulator's models differ in weights, not in shape.
   */
  static final double KV_BYTES_PER_TOKEN = 32 * 8 * 128 * 2 * 2;

  /** Validates. */
  public VllmMfu {
    if (!(flopsPerToken > 0) || !(readBytesPerStep > 0) || !(writeBytesPerToken > 0)) {
      throw new IllegalArgumentException("MFU model figures must be > 0");
    }
  }

  /** The model for a GPU holding {@code weightsMiB} of BF16 weights (2 bytes per weight). */
  public static VllmMfu forWeights(double weightsMiB) {
    double bytes = weightsMiB * 1024 * 1024;
    return new VllmMfu(2 * (bytes / 2), bytes, KV_BYTES_PER_TOKEN);
  }
}
