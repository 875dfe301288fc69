package dev.infermon.promql.value;

import dev.infermon.model.labels.Labels;
import java.util.Arrays;
import java.util.Objects;

/**
 * One series of a matrix: labels and points in increasing time order, stored as two primitive
 * arrays (no boxing). Immutable: the arrays are copied in and never handed out.
 */
public final class TimeSeries {
  private final Labels labels;
  private final long[] timestamps;
  private final double[] values;

  private TimeSeries(Labels labels, long[] timestamps, double[] values) {
    this.labels = labels;
    this.timestamps = timestamps;
    this.values = values;
  }

  /**
   * A series from copies of the given points.
   *
   * @throws IllegalArgumentException when the arrays differ in length or times do not increase
   */
  public static TimeSeries of(Labels labels, long[] timestamps, double[] values) {
    Objects.requireNonNull(labels, "labels");
    if (timestamps.length != values.length) {
      throw new IllegalArgumentException(
          "timestamps and values differ in length: " + timestamps.length + " vs " + values.length);
    }
    for (int i = 1; i < timestamps.length; i++) {
      if (timestamps[i] <= timestamps[i - 1]) {
        throw new IllegalArgumentException(
            "timestamps must increase, got " + timestamps[i] + " after " + timestamps[i - 1]);
      }
    }
    return new TimeSeries(labels, timestamps.clone(), values.clone());
  }

  /**
   * Wraps arrays the caller hands over (the first {@code size} entries are used). For producers
   * that built the arrays themselves and never touch them again.
   */
  public static TimeSeries wrap(Labels labels, long[] timestamps, double[] values, int size) {
    if (size != timestamps.length) {
      timestamps = Arrays.copyOf(timestamps, size);
      values = Arrays.copyOf(values, size);
    }
    return new TimeSeries(labels, timestamps, values);
  }

  public Labels labels() {
    return labels;
  }

  /** Number of points. */
  public int size() {
    return timestamps.length;
  }

  public long timestampAt(int i) {
    return timestamps[i];
  }

  public double valueAt(int i) {
    return values[i];
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TimeSeries)) {
      return false;
    }
    TimeSeries s = (TimeSeries) o;
    return labels.equals(s.labels)
        && Arrays.equals(timestamps, s.timestamps)
        && Arrays.equals(values, s.values);
  }

  @Override
  public int hashCode() {
    return labels.hashCode() * 31 + Arrays.hashCode(timestamps);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(labels.toString()).append(" [");
    for (int i = 0; i < timestamps.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(values[i]).append(" @").append(timestamps[i]);
    }
    return sb.append(']').toString();
  }
}
