package dev.infermon.web.retrieval;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code /api/v1/rules} and {@code /api/v1/alerts} need from the rule manager (Prometheus's
 * {@code RulesRetriever}). Until rules land, the server passes {@link #NONE}.
 *
 * <p>Threading: thread-safe; every call returns a fresh, immutable snapshot.
 */
public interface RulesRetriever {
  /** No rules. */
  RulesRetriever NONE = List::of;

  /** Rule groups in file and group order. */
  List<RuleGroup> ruleGroups();

  /** Active (pending or firing) alerts of every alerting rule, in rule order. */
  default List<Alert> activeAlerts() {
    List<Alert> out = new ArrayList<>();
    for (RuleGroup g : ruleGroups()) {
      for (Rule r : g.rules()) {
        if (r instanceof Rule.Alerting) {
          out.addAll(((Rule.Alerting) r).alerts());
        }
      }
    }
    return out;
  }
}
