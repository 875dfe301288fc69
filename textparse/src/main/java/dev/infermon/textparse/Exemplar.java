package dev.infermon.textparse;

import dev.infermon.model.labels.Labels;
import java.util.Objects;

/**
 * An OpenMetrics exemplar: {@code # {trace_id="..."} value [timestamp]} after a counter or bucket
 * sample.
 *
 * @param labels the exemplar's labels (no metric name)
 * @param value its value
 * @param hasTimestamp whether a timestamp was given
 * @param timestamp its timestamp in milliseconds since the epoch; 0 when absent
 */
public record Exemplar(Labels labels, double value, boolean hasTimestamp, long timestamp) {
  public Exemplar {
    Objects.requireNonNull(labels, "labels");
    if (!hasTimestamp && timestamp != 0) {
      throw new IllegalArgumentException("timestamp without hasTimestamp: " + timestamp);
    }
  }
}
