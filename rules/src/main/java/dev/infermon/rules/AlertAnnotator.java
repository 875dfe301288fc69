package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import java.util.Map;

/**
 * Annotations an alert gets beside its rule's own, computed while it is active: the server's LLM
 * layer adds the diagnosis at that moment (docs/alerting.md, "Alerts carry their cause"). Rules own
 * this seam; they call it after each evaluation of an alerting rule, once per pending or firing
 * alert, so the annotations follow what the implementation says at every evaluation, and they reach
 * the notifier and {@code /api/v1/alerts} with the next send.
 *
 * <p>The rule's own annotations win: a name the rule already annotates is ignored. Calls of one
 * evaluation are made in turn on one thread other than the group's, under the group's time budget
 * ({@link RuleManagerOptions#annotatorTimeout}); when the budget runs out the thread is interrupted
 * and the alerts not yet annotated go without.
 *
 * <p>Threading: called from several groups' threads at once; must be thread-safe. Errors: whatever
 * it throws leaves that alert without its annotations for that evaluation, is logged when the
 * message changes, and never fails the rule or its group; an implementation that can say why it has
 * nothing to add should rather return that as an annotation.
 */
@FunctionalInterface
public interface AlertAnnotator {
  /** Adds nothing. */
  AlertAnnotator NONE = alert -> Map.of();

  /**
   * One active alert at one evaluation. Immutable.
   *
   * @param alertName the rule's {@code alert}
   * @param expr the rule's expression as the rule prints it (its {@code query} in {@code
   *     /api/v1/rules})
   * @param labels the alert's labels ({@code alertname} and the rule's labels included)
   * @param state {@link AlertState#PENDING} or {@link AlertState#FIRING}
   * @param activeAtMs when the expression first returned it
   * @param evalTimeMs the evaluation's time
   */
  record Subject(
      String alertName,
      String expr,
      Labels labels,
      AlertState state,
      long activeAtMs,
      long evalTimeMs) {
    public Subject {
      if (alertName == null || expr == null || labels == null || state == null) {
        throw new IllegalArgumentException("a subject needs a name, an expression, labels, state");
      }
    }
  }

  /** Annotations to add to {@code alert}, by name; empty for none. */
  Map<String, String> annotations(Subject alert);
}
