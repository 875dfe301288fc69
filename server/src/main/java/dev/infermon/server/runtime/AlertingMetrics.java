package dev.infermon.server.runtime;

import dev.infermon.notifier.NotifierMetrics;
import dev.infermon.rules.AlertSnapshot;
import dev.infermon.rules.AlertState;
import dev.infermon.rules.RuleGroupStatus;
import dev.infermon.rules.RuleStatus;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * infermon's metrics about rules and notifications, named after Prometheus's ({@code
 * prometheus_notifications_*}, {@code prometheus_rule_group_*}) with infermon's prefix. The
 * notifier reports through the {@link NotifierMetrics} methods; rule-group figures are read from
 * the rule manager's snapshots when {@code /metrics} is scraped, so they need no hook in the rules
 * module.
 *
 * <p>Thread-safe: client_java metrics are.
 */
final class AlertingMetrics implements NotifierMetrics {
  private final Counter sent;
  private final Counter errors;
  private final Counter dropped;
  private final Histogram latency;

  /**
   * Registers every metric.
   *
   * @param groups the rule manager's snapshots; empty while no manager runs
   * @param queueLength the notifier's queue length, or -1 while none runs
   * @param queueCapacity the notifier's queue capacity
   */
  AlertingMetrics(
      PrometheusRegistry registry,
      Supplier<List<RuleGroupStatus>> groups,
      IntSupplier queueLength,
      IntSupplier queueCapacity) {
    sent =
        Counter.builder()
            .withoutExemplars()
            .name("infermon_notifications_sent_total")
            .help("Alerts sent, by Alertmanager or webhook URL.")
            .labelNames("alertmanager")
            .register(registry);
    errors =
        Counter.builder()
            .withoutExemplars()
            .name("infermon_notifications_errors_total")
            .help("Alerts whose sending failed, by Alertmanager or webhook URL.")
            .labelNames("alertmanager")
            .register(registry);
    dropped =
        Counter.builder()
            .withoutExemplars()
            .name("infermon_notifications_dropped_total")
            .help("Alerts dropped: queue full, or reached no endpoint of a set.")
            .register(registry);
    latency =
        Histogram.builder()
            .withoutExemplars()
            .name("infermon_notifications_latency_seconds")
            .help("Time to post one batch of alerts, by Alertmanager or webhook URL.")
            .labelNames("alertmanager")
            .classicOnly()
            .classicUpperBounds(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
            .register(registry);
    GaugeWithCallback.builder()
        .name("infermon_notifications_queue_length")
        .help("Alerts waiting to be sent.")
        .callback(
            cb -> {
              int n = queueLength.getAsInt();
              if (n >= 0) {
                cb.call(n);
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("infermon_notifications_queue_capacity")
        .help("Capacity of the alert queue (--alertmanager.notification-queue-capacity).")
        .callback(cb -> cb.call(queueCapacity.getAsInt()))
        .register(registry);
    bindRules(registry, groups);
  }

  private static void bindRules(PrometheusRegistry registry, Supplier<List<RuleGroupStatus>> g) {
    groupGauge(
        registry,
        "infermon_rule_group_last_duration_seconds",
        "How long the last evaluation of the group took.",
        g,
        s -> s.evaluationNanos() / 1e9);
    groupGauge(
        registry,
        "infermon_rule_group_last_evaluation_timestamp_seconds",
        "When the group was last evaluated (0 before the first evaluation).",
        g,
        s -> s.lastEvaluationMs() / 1000.0);
    groupGauge(
        registry,
        "infermon_rule_group_interval_seconds",
        "The group's evaluation interval.",
        g,
        s -> s.intervalMs() / 1000.0);
    groupGauge(
        registry, "infermon_rule_group_rules", "Rules in the group.", g, s -> s.rules().size());
    groupGauge(
        registry,
        "infermon_rule_group_rules_failing",
        "Rules of the group whose last evaluation failed (health err).",
        g,
        s -> s.rules().stream().filter(r -> r.health().equals("err")).count());
    GaugeWithCallback.builder()
        .name("infermon_alerts")
        .help("Active alerts, by state (pending or firing).")
        .labelNames("state")
        .callback(
            cb -> {
              long pending = 0;
              long firing = 0;
              for (RuleGroupStatus s : g.get()) {
                for (RuleStatus r : s.rules()) {
                  for (AlertSnapshot a : r.alerts()) {
                    if (a.state() == AlertState.PENDING) {
                      pending++;
                    } else if (a.state() == AlertState.FIRING) {
                      firing++;
                    }
                  }
                }
              }
              cb.call(pending, "pending");
              cb.call(firing, "firing");
            })
        .register(registry);
  }

  private interface GroupValue {
    double of(RuleGroupStatus s);
  }

  private static void groupGauge(
      PrometheusRegistry r,
      String name,
      String help,
      Supplier<List<RuleGroupStatus>> groups,
      GroupValue v) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .labelNames("rule_group")
        .callback(
            cb -> {
              for (RuleGroupStatus s : groups.get()) {
                // Prometheus's rule_group label: file and group name joined by ';'.
                cb.call(v.of(s), s.file() + ";" + s.name());
              }
            })
        .register(r);
  }

  @Override
  public void sent(String endpoint, int alerts) {
    sent.labelValues(endpoint).inc(alerts);
  }

  @Override
  public void errors(String endpoint, int alerts) {
    errors.labelValues(endpoint).inc(alerts);
  }

  @Override
  public void dropped(int alerts) {
    dropped.inc(alerts);
  }

  @Override
  public void latency(String endpoint, double seconds) {
    latency.labelValues(endpoint).observe(seconds);
  }
}
