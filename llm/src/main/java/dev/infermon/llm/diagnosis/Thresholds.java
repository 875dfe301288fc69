package dev.infermon.llm.diagnosis;

import dev.infermon.config.app.LlmConfig;

/**
 * The numbers the states and symptoms are decided with (docs/diagnosis.md explains each). The
 * symptoms use the default alert pack's own thresholds ({@code alerts}), so what fires an alert is
 * what diagnosis calls a symptom. Immutable.
 *
 * @param kvHigh KV usage counted as "full"
 * @param kvShare share of the window's points above {@code kvHigh} for KV pressure
 * @param queueLong mean waiting requests counted as a long queue
 * @param queueGrowth growth of waiting (mean of the last third minus the first third) that counts
 *     as growing
 * @param pinnedShare how close running's median must stay to its maximum for "pinned"
 * @param rarePreemptions preemptions per finished request (window means) below which a KV cache
 *     full under a long queue is the overload's doing, not a cache too small: saturation
 * @param deferredShare share of the waiting requests waiting as deferred
 * @param gpuIdle GPU activity (percent: SM active, else tensor active, else GPU util) counted as
 *     idle
 * @param slowFactor how many times its peers' median a pod's latency must be to stand out
 * @param errorRatio share of finished requests failing counted as errors
 * @param gpuMemoryFull share of GPU memory used counted as near full
 * @param pdFactor how many times the other side's queue makes one side the bottleneck
 * @param alerts the default alert pack's thresholds: the TTFT quantile and its limit, the waiting
 *     requests, the failing share
 * @param symptomShare share of the window's points at or over a symptom's threshold for the symptom
 *     to be seen (it is also seen when the window's last point is over)
 * @param itlHigh mean inter-token latency, in seconds, counted as slow streaming
 * @param promptLong mean prompt length, in tokens, counted as long
 * @param prefixLow prefix-cache hit rate (hit tokens over queried tokens) counted as low
 * @param prefillDominance how many times the mean queue time the mean prefill time must be for
 *     prefill to dominate
 * @param prefillShare the share of the mean TTFT the mean prefill time must make up for prefill to
 *     dominate
 * @param batchLarge median running requests counted as a large decode batch
 * @param specAcceptLow speculative-decoding acceptance (accepted over drafted tokens) counted as
 *     low
 */
public record Thresholds(
    double kvHigh,
    double kvShare,
    double queueLong,
    double queueGrowth,
    double pinnedShare,
    double rarePreemptions,
    double deferredShare,
    double gpuIdle,
    double slowFactor,
    double errorRatio,
    double gpuMemoryFull,
    double pdFactor,
    LlmConfig.Alerts alerts,
    double symptomShare,
    double itlHigh,
    double promptLong,
    double prefixLow,
    double prefillDominance,
    double prefillShare,
    double batchLarge,
    double specAcceptLow) {
  public static final Thresholds DEFAULT =
      new Thresholds(
          0.9,
          0.5,
          5,
          5,
          0.75,
          0.1,
          0.5,
          40,
          2,
          0.05,
          0.98,
          2,
          LlmConfig.Alerts.DEFAULT,
          0.2,
          0.1,
          4096,
          0.2,
          2,
          0.5,
          64,
          0.5);

  public Thresholds {
    if (alerts == null) {
      throw new IllegalArgumentException("the alert thresholds are required");
    }
  }

  /** These thresholds with the alert pack's {@code a} (as {@code llm.alerts} configures it). */
  public Thresholds withAlerts(LlmConfig.Alerts a) {
    return new Thresholds(
        kvHigh,
        kvShare,
        queueLong,
        queueGrowth,
        pinnedShare,
        rarePreemptions,
        deferredShare,
        gpuIdle,
        slowFactor,
        errorRatio,
        gpuMemoryFull,
        pdFactor,
        a,
        symptomShare,
        itlHigh,
        promptLong,
        prefixLow,
        prefillDominance,
        prefillShare,
        batchLarge,
        specAcceptLow);
  }

  /** The TTFT limit of the alert pack, in seconds. */
  double ttftHigh() {
    return alerts.ttftThreshold().toMillis() / 1000.0;
  }
}
