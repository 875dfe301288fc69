package dev.infermon.web.retrieval;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A rule group as {@code /api/v1/rules} shows it.
 *
 * @param lastEvaluation empty before the first evaluation (shown as Go's zero time)
 */
public record RuleGroup(
    String name,
    String file,
    List<Rule> rules,
    Duration interval,
    int limit,
    Duration evaluationTime,
    Optional<Instant> lastEvaluation) {
  public RuleGroup {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(file, "file");
    rules = List.copyOf(rules);
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(evaluationTime, "evaluationTime");
    Objects.requireNonNull(lastEvaluation, "lastEvaluation");
  }
}
