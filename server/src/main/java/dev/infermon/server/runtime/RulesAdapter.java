package dev.infermon.server.runtime;

import dev.infermon.rules.AlertSnapshot;
import dev.infermon.rules.RuleGroupStatus;
import dev.infermon.rules.RuleStatus;
import dev.infermon.web.retrieval.Alert;
import dev.infermon.web.retrieval.Rule;
import dev.infermon.web.retrieval.RuleGroup;
import dev.infermon.web.retrieval.RulesRetriever;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Shows the rule manager to the web module's {@link RulesRetriever} ({@code /api/v1/rules}, {@code
 * /api/v1/alerts}): snapshots from {@link dev.infermon.rules.RuleManager#status()} mapped field by
 * field. Thread-safe; every call builds a fresh snapshot.
 */
final class RulesAdapter implements RulesRetriever {
  private final Supplier<List<RuleGroupStatus>> groups;

  RulesAdapter(Supplier<List<RuleGroupStatus>> groups) {
    this.groups = groups;
  }

  @Override
  public List<RuleGroup> ruleGroups() {
    List<RuleGroup> out = new ArrayList<>();
    for (RuleGroupStatus g : groups.get()) {
      List<Rule> rules = new ArrayList<>();
      for (RuleStatus r : g.rules()) {
        rules.add(rule(r));
      }
      out.add(
          new RuleGroup(
              g.name(),
              g.file(),
              rules,
              Duration.ofMillis(g.intervalMs()),
              g.limit(),
              Duration.ofNanos(g.evaluationNanos()),
              time(g.lastEvaluationMs())));
    }
    return out;
  }

  private static Rule rule(RuleStatus r) {
    if (!r.isAlerting()) {
      return new Rule.Recording(
          r.name(),
          r.query(),
          r.labels(),
          r.health(),
          r.lastError(),
          Duration.ofNanos(r.evaluationNanos()),
          time(r.lastEvaluationMs()));
    }
    List<Alert> alerts = new ArrayList<>();
    for (AlertSnapshot a : r.alerts()) {
      alerts.add(
          new Alert(
              a.labels(),
              a.annotations(),
              a.state().label(),
              Instant.ofEpochMilli(a.activeAt()),
              a.value()));
    }
    return new Rule.Alerting(
        r.state(),
        r.name(),
        r.query(),
        Duration.ofMillis(r.durationMs()),
        r.labels(),
        r.annotations(),
        alerts,
        r.health(),
        r.lastError(),
        Duration.ofNanos(r.evaluationNanos()),
        time(r.lastEvaluationMs()));
  }

  private static Optional<Instant> time(long ms) {
    return ms == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(ms));
  }
}
