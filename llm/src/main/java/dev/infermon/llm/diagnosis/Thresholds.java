package dev.infermon.llm.diagnosis;

/**
 * The numbers the states are decided with (docs/diagnosis.md explains each). Immutable.
 *
 * @param kvHigh KV usage counted as "full"
 * @param kvShare share of the window's points above {@code kvHigh} for KV pressure
 * @param queueLong mean waiting requests counted as a long queue
 * @param queueGrowth growth of waiting (mean of the last third minus the first third) that counts
 *     as growing
 * @param pinnedShare how close running's median must stay to its maximum for "pinned"
 * @param deferredShare share of the waiting requests waiting as deferred
 * @param gpuIdle GPU activity (percent: SM active, else tensor active, else GPU util) counted as
 *     idle
 * @param slowFactor how many times its peers' median a pod's latency must be to stand out
 * @param errorRatio share of finished requests failing counted as errors
 * @param gpuMemoryFull share of GPU memory used counted as near full
 * @param pdFactor how many times the other side's queue makes one side the bottleneck
 */
public record Thresholds(
    double kvHigh,
    double kvShare,
    double queueLong,
    double queueGrowth,
    double pinnedShare,
    double deferredShare,
    double gpuIdle,
    double slowFactor,
    double errorRatio,
    double gpuMemoryFull,
    double pdFactor) {
  public static final Thresholds DEFAULT =
      new Thresholds(0.9, 0.5, 5, 5, 0.75, 0.5, 40, 2, 0.05, 0.98, 2);
}
