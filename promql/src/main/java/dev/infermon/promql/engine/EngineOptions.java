package dev.infermon.promql.engine;

import java.time.Duration;

/**
 * Engine settings, with Prometheus's defaults in {@link #DEFAULTS}.
 *
 * @param lookbackDelta how far back an instant selector looks for a sample (5m)
 * @param timeout the longest a query may run (2m, Prometheus's {@code --query.timeout})
 * @param maxSamples the most samples a query may hold at once (50,000,000)
 * @param defaultSubqueryStep the step of a subquery written without one (1m, the global evaluation
 *     interval)
 * @param delayedNameRemoval Prometheus 3's experimental {@code promql-delayed-name-removal}: keep
 *     {@code __name__} until the end of evaluation (off by default, as in Prometheus)
 */
public record EngineOptions(
    Duration lookbackDelta,
    Duration timeout,
    int maxSamples,
    Duration defaultSubqueryStep,
    boolean delayedNameRemoval) {
  /** Prometheus's defaults. */
  public static final EngineOptions DEFAULTS =
      new EngineOptions(
          Duration.ofMinutes(5), Duration.ofMinutes(2), 50_000_000, Duration.ofMinutes(1), false);

  public EngineOptions {
    requirePositive("lookbackDelta", lookbackDelta);
    requirePositive("timeout", timeout);
    requirePositive("defaultSubqueryStep", defaultSubqueryStep);
    if (maxSamples <= 0) {
      throw new IllegalArgumentException("maxSamples must be positive, got " + maxSamples);
    }
  }

  private static void requirePositive(String name, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + d);
    }
  }

  public EngineOptions withLookbackDelta(Duration d) {
    return new EngineOptions(d, timeout, maxSamples, defaultSubqueryStep, delayedNameRemoval);
  }

  public EngineOptions withTimeout(Duration d) {
    return new EngineOptions(lookbackDelta, d, maxSamples, defaultSubqueryStep, delayedNameRemoval);
  }

  public EngineOptions withMaxSamples(int n) {
    return new EngineOptions(lookbackDelta, timeout, n, defaultSubqueryStep, delayedNameRemoval);
  }

  public EngineOptions withDefaultSubqueryStep(Duration d) {
    return new EngineOptions(lookbackDelta, timeout, maxSamples, d, delayedNameRemoval);
  }

  public EngineOptions withDelayedNameRemoval(boolean on) {
    return new EngineOptions(lookbackDelta, timeout, maxSamples, defaultSubqueryStep, on);
  }
}
