package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.Printer;
import dev.infermon.promql.value.Sample;
import java.util.List;

/**
 * A recording or alerting rule with the health of its last evaluation. Evaluation runs on the
 * group's thread; health fields are volatile so that API snapshots read them from other threads.
 */
abstract sealed class Rule permits RecordingRule, AlertingRule {
  final String name;
  final Expr expr;
  final String query;
  final Labels labels;
  private volatile String health = "unknown";
  private volatile String lastError = "";
  private volatile long evaluationNanos;
  private volatile long lastEvaluationMs;

  Rule(String name, Expr expr, Labels labels) {
    this.name = name;
    this.expr = expr;
    this.query = Printer.print(expr);
    this.labels = labels;
  }

  /**
   * Evaluates at {@code ts} (the query runs at {@code ts - queryOffset}).
   *
   * @return the samples to write
   * @throws RuntimeException whose message is the rule's error
   */
  abstract List<Sample> eval(long ts, long queryOffsetMs, EvalContext ctx, int limit);

  /** Marks the rule healthy; true when its last evaluation had failed. */
  boolean ok() {
    boolean recovered = health.equals("err");
    health = "ok";
    lastError = "";
    return recovered;
  }

  /** Marks the rule failed; true when the error differs from the last evaluation's. */
  boolean failed(String error) {
    boolean changed = !health.equals("err") || !lastError.equals(error);
    health = "err";
    lastError = error;
    return changed;
  }

  void evaluated(long startMs, long nanos) {
    lastEvaluationMs = startMs;
    evaluationNanos = nanos;
  }

  String health() {
    return health;
  }

  String lastError() {
    return lastError;
  }

  long evaluationNanos() {
    return evaluationNanos;
  }

  long lastEvaluationMs() {
    return lastEvaluationMs;
  }

  /** Name and labels: how a reloaded group finds a rule's previous state. */
  String identity() {
    return name + labels;
  }
}
