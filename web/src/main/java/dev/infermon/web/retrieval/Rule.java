package dev.infermon.web.retrieval;

import dev.infermon.model.labels.Labels;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** One rule of a group, alerting or recording, with its last evaluation's health. */
public sealed interface Rule permits Rule.Alerting, Rule.Recording {
  String name();

  /** The rule's expression as Prometheus prints it. */
  String query();

  /** {@code ok}, {@code err} or {@code unknown}. */
  String health();

  /** The last evaluation's error, empty when it succeeded. */
  String lastError();

  Duration evaluationTime();

  Optional<Instant> lastEvaluation();

  /**
   * An alerting rule.
   *
   * @param state {@code inactive}, {@code pending} or {@code firing}
   * @param duration the {@code for} clause
   */
  record Alerting(
      String state,
      String name,
      String query,
      Duration duration,
      Labels labels,
      Labels annotations,
      List<Alert> alerts,
      String health,
      String lastError,
      Duration evaluationTime,
      Optional<Instant> lastEvaluation)
      implements Rule {
    public Alerting {
      alerts = List.copyOf(alerts);
    }
  }

  /** A recording rule. */
  record Recording(
      String name,
      String query,
      Labels labels,
      String health,
      String lastError,
      Duration evaluationTime,
      Optional<Instant> lastEvaluation)
      implements Rule {}
}
