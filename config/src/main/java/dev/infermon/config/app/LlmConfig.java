package dev.infermon.config.app;

import java.time.Duration;
import java.util.List;

/**
 * The {@code llm} section: the built-in alert pack and the latency quantiles that dashboards show.
 * Alerts are few and user-facing: time to first token over target, and requests piling up while the
 * engine preempts.
 */
public record LlmConfig(Alerts alerts, List<Double> quantiles) {
  /** Thresholds of the default alert pack. */
  public record Alerts(
      boolean enabled,
      double ttftQuantile,
      Duration ttftThreshold,
      Duration ttftFor,
      long waitingThreshold,
      Duration waitingFor) {
    /** TTFT p95 above 2 s for 10 minutes; more than 50 waiting with preemptions for 15 minutes. */
    public static final Alerts DEFAULT =
        new Alerts(
            true, 0.95, Duration.ofSeconds(2), Duration.ofMinutes(10), 50, Duration.ofMinutes(15));
  }

  public static final List<Double> DEFAULT_QUANTILES = List.of(0.5, 0.9, 0.95, 0.99);
  public static final LlmConfig DEFAULT = new LlmConfig(Alerts.DEFAULT, DEFAULT_QUANTILES);
}
