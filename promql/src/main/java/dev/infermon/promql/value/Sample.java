package dev.infermon.promql.value;

import dev.infermon.model.labels.Labels;
import java.util.Objects;

/**
 * One element of an instant vector.
 *
 * @param labels the series' labels
 * @param timestampMs the evaluation time
 * @param value the value
 */
public record Sample(Labels labels, long timestampMs, double value) {
  public Sample {
    Objects.requireNonNull(labels, "labels");
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Sample)) {
      return false;
    }
    Sample s = (Sample) o;
    return s.timestampMs == timestampMs
        && Double.doubleToLongBits(s.value) == Double.doubleToLongBits(value)
        && s.labels.equals(labels);
  }

  @Override
  public int hashCode() {
    return labels.hashCode() * 31 + Double.hashCode(value);
  }
}
