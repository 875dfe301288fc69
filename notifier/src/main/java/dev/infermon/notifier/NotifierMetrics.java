package dev.infermon.notifier;

/**
 * Where the notifier reports what it did (Prometheus's {@code prometheus_notifications_*}). The
 * server binds it to its metrics registry. Called from the notifier's sending threads; must be
 * thread-safe and fast.
 */
public interface NotifierMetrics {
  /** Counts nothing. */
  NotifierMetrics NONE = new NotifierMetrics() {};

  /** {@code prometheus_notifications_sent_total{alertmanager=url}}. */
  default void sent(String endpoint, int alerts) {}

  /** {@code prometheus_notifications_errors_total{alertmanager=url}}. */
  default void errors(String endpoint, int alerts) {}

  /** {@code prometheus_notifications_dropped_total}. */
  default void dropped(int alerts) {}

  /** {@code prometheus_notifications_latency_seconds{alertmanager=url}}. */
  default void latency(String endpoint, double seconds) {}
}
