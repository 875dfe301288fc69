package dev.infermon.simulator.model;

/**
 * What one engine can do: its KV cache, batch limits and the cost of an iteration. Times are in
 * seconds. An iteration costs {@code cpuOverhead} (scheduling and Python, the GPU idles) plus GPU
 * time {@code gpuBase + prefillTokens * prefillPerToken + decodeSeqs * decodePerSeq + kvTokens *
 * attentionPerKvToken}; that split is what makes a tiny batch look like an idle GPU.
 *
 * @param numGpuBlocks KV cache capacity in blocks
 * @param blockSize tokens per KV block (vLLM's default 16; SGLang pages of 1 token behave alike)
 * @param maxNumSeqs the most requests in one batch
 * @param maxBatchedTokens the token budget of one iteration (chunked prefill)
 * @param maxModelLen the context length, which also bounds the token histograms' 1-2-5 buckets
 * @param cpuOverhead seconds per iteration during which the GPU is idle
 * @param gpuBase GPU seconds per iteration regardless of the batch
 * @param prefillPerToken GPU seconds per prompt token computed
 * @param decodePerSeq GPU seconds per decoding sequence
 * @param attentionPerKvToken GPU seconds per KV token read in decode
 * @param transferPerToken seconds per prompt token to receive KV from a prefill peer (0 unless this
 *     engine is the decode side of a prefill/decode pair)
 */
public record EngineParams(
    int numGpuBlocks,
    int blockSize,
    int maxNumSeqs,
    int maxBatchedTokens,
    int maxModelLen,
    double cpuOverhead,
    double gpuBase,
    double prefillPerToken,
    double decodePerSeq,
    double attentionPerKvToken,
    double transferPerToken) {

  /** Validates every field; names the first bad one. */
  public EngineParams {
    positive("numGpuBlocks", numGpuBlocks);
    positive("blockSize", blockSize);
    positive("maxNumSeqs", maxNumSeqs);
    positive("maxBatchedTokens", maxBatchedTokens);
    positive("maxModelLen", maxModelLen);
    nonNegative("cpuOverhead", cpuOverhead);
    nonNegative("gpuBase", gpuBase);
    nonNegative("prefillPerToken", prefillPerToken);
    nonNegative("decodePerSeq", decodePerSeq);
    nonNegative("attentionPerKvToken", attentionPerKvToken);
    nonNegative("transferPerToken", transferPerToken);
    if (cpuOverhead + gpuBase <= 0) {
      throw new IllegalArgumentException("an iteration must take time: cpuOverhead + gpuBase is 0");
    }
  }

  /** The KV cache capacity in tokens. */
  public long kvCapacityTokens() {
    return (long) numGpuBlocks * blockSize;
  }

  /** The same engine as the decode side of a PD pair, receiving KV at the given cost per token. */
  public EngineParams withTransferPerToken(double seconds) {
    return new EngineParams(
        numGpuBlocks,
        blockSize,
        maxNumSeqs,
        maxBatchedTokens,
        maxModelLen,
        cpuOverhead,
        gpuBase,
        prefillPerToken,
        decodePerSeq,
        attentionPerKvToken,
        seconds);
  }

  private static void positive(String name, int v) {
    if (v <= 0) {
      throw new IllegalArgumentException(name + " must be positive, got " + v);
    }
  }

  private static void nonNegative(String name, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be finite and >= 0, got " + v);
    }
  }
}
