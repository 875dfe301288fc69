package dev.infermon.simulator.model;

/**
 * How the arrival rate of one model moves with time: a daily cycle (peak mid-afternoon UTC, trough
 * at night) and bursts. Bursts are a stateless function of (seed, model, 5-minute window), so every
 * pod serving the model sees the same burst at the same time, and the schedule does not depend on
 * how the simulation was stepped.
 *
 * @param seed the fleet seed
 * @param modelKey a hash of the model name
 * @param dailyAmplitude relative swing of the daily cycle (0.4 = ±40%)
 * @param burstProbability share of 5-minute windows with a burst
 * @param burstFactor rate multiplier during a burst
 */
public record LoadShape(
    long seed, long modelKey, double dailyAmplitude, double burstProbability, double burstFactor) {
  static final double BURST_WINDOW_SECONDS = 300;
  private static final double DAY_SECONDS = 86_400;
  private static final double PEAK_HOUR_UTC = 15;

  /** Validates ranges. */
  public LoadShape {
    if (!(dailyAmplitude >= 0 && dailyAmplitude < 1)) {
      throw new IllegalArgumentException("dailyAmplitude must be in [0, 1), got " + dailyAmplitude);
    }
    if (!(burstProbability >= 0 && burstProbability <= 1)) {
      throw new IllegalArgumentException(
          "burstProbability must be in [0, 1], got " + burstProbability);
    }
    if (!(burstFactor >= 1)) {
      throw new IllegalArgumentException("burstFactor must be >= 1, got " + burstFactor);
    }
  }

  /** A flat shape (tests that need a constant rate). */
  public static LoadShape flat() {
    return new LoadShape(0, 0, 0, 0, 1);
  }

  /** The rate multiplier at {@code epochSeconds}. */
  public double multiplier(double epochSeconds) {
    double phase = (epochSeconds / DAY_SECONDS - PEAK_HOUR_UTC / 24.0) * 2 * Math.PI;
    double daily = 1 + dailyAmplitude * Math.cos(phase);
    return daily * (inBurst(epochSeconds) ? burstFactor : 1);
  }

  /** The largest multiplier this shape can return (for thinning). */
  public double maxMultiplier() {
    return (1 + dailyAmplitude) * burstFactor;
  }

  /** Whether a burst is on at {@code epochSeconds}. */
  public boolean inBurst(double epochSeconds) {
    long window = (long) Math.floor(epochSeconds / BURST_WINDOW_SECONDS);
    return Rng.hashUniform(seed, modelKey, window) < burstProbability;
  }
}
