package dev.infermon.llm.export;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * One alerting rule as a Prometheus rule file writes it.
 *
 * @param alert the alert name
 * @param expr the PromQL condition
 * @param forDuration how long it must hold before firing
 * @param labels labels added to the alert ({@code severity})
 * @param annotations summary and description templates
 */
public record AlertRule(
    String alert,
    String expr,
    Duration forDuration,
    Map<String, String> labels,
    Map<String, String> annotations) {
  public AlertRule {
    if (alert == null || !alert.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException("bad alert name: " + alert);
    }
    if (expr == null || expr.isBlank()) {
      throw new IllegalArgumentException(alert + ": expr must not be empty");
    }
    labels = java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
    annotations = java.util.Collections.unmodifiableMap(new TreeMap<>(annotations));
  }
}
