package dev.infermon.rules;

import java.util.List;

/**
 * A rule group as {@code /api/v1/rules} shows it. Times in milliseconds; {@code lastEvaluationMs}
 * is 0 before the first evaluation (the API prints Go's zero time then).
 */
public record RuleGroupStatus(
    String name,
    String file,
    long intervalMs,
    int limit,
    List<RuleStatus> rules,
    long evaluationNanos,
    long lastEvaluationMs) {
  public RuleGroupStatus {
    rules = List.copyOf(rules);
  }
}
