package dev.infermon.simulator.model;

/**
 * The scheduler's state at one instant: what the engines' gauges report.
 *
 * @param running requests in the batch
 * @param waitingCapacity requests waiting for room in the batch or the KV cache
 * @param waitingDeferred requests held back by a transient constraint (LoRA budget)
 * @param transferring requests whose KV is still arriving from a prefill peer
 * @param usedBlocks KV blocks in use
 * @param totalBlocks KV blocks the engine may use
 * @param blockSize tokens per block
 * @param decodeSumSeqLens sum of the context lengths of the running requests
 */
public record EngineState(
    int running,
    int waitingCapacity,
    int waitingDeferred,
    int transferring,
    int usedBlocks,
    int totalBlocks,
    int blockSize,
    long decodeSumSeqLens) {

  /** All waiting requests, whatever the reason. */
  public int waiting() {
    return waitingCapacity + waitingDeferred;
  }

  /** KV cache usage in [0, 1] (1 means full). */
  public double kvUsage() {
    return totalBlocks == 0 ? 0 : (double) usedBlocks / totalBlocks;
  }

  /** KV tokens in use. */
  public long usedTokens() {
    return (long) usedBlocks * blockSize;
  }
}
