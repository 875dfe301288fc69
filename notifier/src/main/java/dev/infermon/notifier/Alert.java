package dev.infermon.notifier;

import dev.infermon.model.labels.Labels;
import java.util.Objects;

/**
 * An alert as Alertmanager's API v2 receives it ({@code postableAlert}). Times in milliseconds
 * since the epoch; 0 leaves the field out. Immutable.
 */
public record Alert(
    Labels labels, Labels annotations, long startsAtMs, long endsAtMs, String generatorUrl) {
  public Alert {
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(annotations, "annotations");
    Objects.requireNonNull(generatorUrl, "generatorUrl");
  }

  Alert withLabels(Labels l) {
    return new Alert(l, annotations, startsAtMs, endsAtMs, generatorUrl);
  }
}
