package dev.infermon.web.retrieval;

import dev.infermon.model.labels.Labels;
import java.time.Instant;
import java.util.Objects;

/**
 * An active alert as {@code /api/v1/alerts} shows it.
 *
 * @param state {@code pending} or {@code firing}
 * @param value the value of the expression that made it active
 */
public record Alert(
    Labels labels, Labels annotations, String state, Instant activeAt, double value) {
  public Alert {
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(annotations, "annotations");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(activeAt, "activeAt");
  }
}
