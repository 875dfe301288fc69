package dev.infermon.simulator.model;

/**
 * How a scenario bends one engine: multipliers on load, KV capacity, speed and prompt length, a cap
 * on the batch, the shares of failing and deferred requests, and whether prompts share cached
 * prefixes. {@link #NONE} is the healthy engine.
 *
 * @param arrivalFactor multiplier on the arrival rate
 * @param kvCapacityFactor multiplier on the KV blocks the engine may use, in (0, 1]
 * @param slowdown multiplier on GPU time per iteration (a slow card or a throttled node)
 * @param maxNumSeqsCap an upper bound on the batch (0 = the engine's own limit)
 * @param outputFactor multiplier on the output length median
 * @param errorRate share of requests the engine fails
 * @param deferredFraction share of requests that need a scarce resource (a LoRA adapter slot)
 * @param deferredBudget how many such requests may run at once
 * @param promptFactor multiplier on the prompt length median
 * @param prefixCaching whether prompts may start with a cached prefix (the workload's share);
 *     false: every prompt is computed in full
 */
public record ScenarioEffects(
    double arrivalFactor,
    double kvCapacityFactor,
    double slowdown,
    int maxNumSeqsCap,
    double outputFactor,
    double errorRate,
    double deferredFraction,
    int deferredBudget,
    double promptFactor,
    boolean prefixCaching) {

  /** The healthy engine: no effect. */
  public static final ScenarioEffects NONE = new ScenarioEffects(1, 1, 1, 0, 1, 0, 0, 0);

  /** Prompts as the workload draws them, prefix caching on. */
  public ScenarioEffects(
      double arrivalFactor,
      double kvCapacityFactor,
      double slowdown,
      int maxNumSeqsCap,
      double outputFactor,
      double errorRate,
      double deferredFraction,
      int deferredBudget) {
    this(
        arrivalFactor,
        kvCapacityFactor,
        slowdown,
        maxNumSeqsCap,
        outputFactor,
        errorRate,
        deferredFraction,
        deferredBudget,
        1,
        true);
  }

  /** Validates ranges. */
  public ScenarioEffects {
    if (!(arrivalFactor >= 0) || !(slowdown >= 1) || !(outputFactor > 0) || !(promptFactor > 0)) {
      throw new IllegalArgumentException(
          "need arrivalFactor >= 0, slowdown >= 1, outputFactor > 0, promptFactor > 0; got "
              + arrivalFactor
              + ", "
              + slowdown
              + ", "
              + outputFactor
              + ", "
              + promptFactor);
    }
    if (!(kvCapacityFactor > 0 && kvCapacityFactor <= 1)) {
      throw new IllegalArgumentException(
          "kvCapacityFactor must be in (0, 1], got " + kvCapacityFactor);
    }
    if (maxNumSeqsCap < 0 || deferredBudget < 0) {
      throw new IllegalArgumentException("caps must be >= 0");
    }
    if (!(errorRate >= 0 && errorRate <= 1) || !(deferredFraction >= 0 && deferredFraction <= 1)) {
      throw new IllegalArgumentException("rates must be in [0, 1]");
    }
  }
}
