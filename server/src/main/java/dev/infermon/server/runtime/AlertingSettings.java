package dev.infermon.server.runtime;

import java.time.Duration;

/**
 * Prometheus's rule and notifier flags. Immutable.
 *
 * @param forOutageTolerance {@code --rules.alert.for-outage-tolerance} (1h): how long infermon may
 *     be down and still restore the {@code for} state of pending alerts
 * @param forGracePeriod {@code --rules.alert.for-grace-period} (10m): the least time between a
 *     restart and a restored alert firing
 * @param resendDelay {@code --rules.alert.resend-delay} (1m): how often a firing alert is re-sent
 * @param notificationQueueCapacity {@code --alertmanager.notification-queue-capacity} (10000)
 */
public record AlertingSettings(
    Duration forOutageTolerance,
    Duration forGracePeriod,
    Duration resendDelay,
    int notificationQueueCapacity) {
  /** Prometheus's defaults. */
  public static final AlertingSettings DEFAULTS =
      new AlertingSettings(
          Duration.ofHours(1), Duration.ofMinutes(10), Duration.ofMinutes(1), 10_000);

  /**
   * Validates.
   *
   * @throws IllegalArgumentException naming the flag whose value is out of range
   */
  public AlertingSettings {
    nonNegative("--rules.alert.for-outage-tolerance", forOutageTolerance);
    nonNegative("--rules.alert.for-grace-period", forGracePeriod);
    nonNegative("--rules.alert.resend-delay", resendDelay);
    if (notificationQueueCapacity < 1) {
      throw new IllegalArgumentException(
          "--alertmanager.notification-queue-capacity must be positive: "
              + notificationQueueCapacity);
    }
  }

  private static void nonNegative(String flag, Duration d) {
    if (d == null || d.isNegative()) {
      throw new IllegalArgumentException(flag + " must not be negative: " + d);
    }
  }
}
