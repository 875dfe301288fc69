package dev.infermon.server.runtime;

import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Prometheus's {@code prometheus_config_last_reload_successful} and {@code
 * prometheus_config_last_reload_success_timestamp_seconds}, under infermon's own prefix as all its
 * metrics are ({@code infermon_config_...}): whether the last load of the configuration file took
 * (start-up counts as one), and when the last one that took did. Thread-safe.
 */
final class ReloadMetrics {
  private final Gauge successful;
  private final Gauge successTimestamp;

  ReloadMetrics(PrometheusRegistry registry) {
    successful =
        Gauge.builder()
            .name("infermon_config_last_reload_successful")
            .help("Whether the last configuration reload attempt was successful.")
            .register(registry);
    successTimestamp =
        Gauge.builder()
            .name("infermon_config_last_reload_success_timestamp_seconds")
            .help("Timestamp of the last successful configuration reload.")
            .register(registry);
  }

  void succeeded(long nowMillis) {
    successful.set(1);
    successTimestamp.set(nowMillis / 1000.0);
  }

  void failed() {
    successful.set(0);
  }
}
