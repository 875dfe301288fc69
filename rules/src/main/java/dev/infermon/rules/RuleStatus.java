package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import java.util.List;

/**
 * One rule as {@code /api/v1/rules} shows it: health {@code ok}, {@code err} or {@code unknown},
 * the last error (empty if none), the expression as Prometheus prints it. For alerting rules also
 * the state ({@code unknown} before the first evaluation, then {@code inactive}, {@code pending} or
 * {@code firing}), {@code for}, {@code keep_firing_for} and the active alerts.
 */
public record RuleStatus(
    String type,
    String name,
    String query,
    Labels labels,
    String health,
    String lastError,
    long evaluationNanos,
    long lastEvaluationMs,
    String state,
    long durationMs,
    long keepFiringForMs,
    Labels annotations,
    List<AlertSnapshot> alerts) {
  public RuleStatus {
    alerts = List.copyOf(alerts);
  }

  public boolean isAlerting() {
    return type.equals("alerting");
  }

  static RuleStatus of(Rule r) {
    if (r instanceof AlertingRule) {
      AlertingRule a = (AlertingRule) r;
      return new RuleStatus(
          "alerting",
          a.name,
          a.query,
          a.labels,
          a.health(),
          a.lastError(),
          a.evaluationNanos(),
          a.lastEvaluationMs(),
          a.state().label(),
          a.holdMs,
          a.keepFiringForMs,
          a.annotationTexts,
          a.activeAlerts());
    }
    return new RuleStatus(
        "recording",
        r.name,
        r.query,
        r.labels,
        r.health(),
        r.lastError(),
        r.evaluationNanos(),
        r.lastEvaluationMs(),
        "",
        0,
        0,
        Labels.EMPTY,
        List.of());
  }
}
