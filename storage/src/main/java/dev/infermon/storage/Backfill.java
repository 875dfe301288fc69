package dev.infermon.storage;

import dev.infermon.model.labels.Labels;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * A storage that takes samples older than its appendable window, written whole at once (a TSDB
 * writes them as a block of their own): what an appender refuses as out of bounds. The samples may
 * share a time range with samples already stored, also of the same series; at a timestamp held
 * twice, the stored sample's value is kept by some storages and the new one's by others, so callers
 * write only what is not stored yet.
 *
 * <p>Threading: thread-safe.
 */
public interface Backfill {
  /**
   * Stores {@code series}, every one or (an error, a crash) none: queriers created after this
   * returns read them, and a storage reopened after it returned holds them.
   *
   * @param mintMs the earliest sample's time, inclusive
   * @param maxtMs after the newest sample's time, exclusive
   * @param series sorted by labels, each label set once, each with samples in {@code [mintMs,
   *     maxtMs)}
   * @return false when nothing was stored because no series had samples
   * @throws IllegalArgumentException for series out of order or samples outside the range
   * @throws IOException when the samples could not be written
   */
  boolean backfill(long mintMs, long maxtMs, List<Samples> series) throws IOException;

  /**
   * One series' samples.
   *
   * @param labels the series
   * @param timestamps strictly increasing, in milliseconds
   * @param values one per timestamp
   */
  record Samples(Labels labels, long[] timestamps, double[] values) {
    public Samples {
      if (labels == null || timestamps == null || values == null) {
        throw new IllegalArgumentException("backfill series: null part");
      }
      if (timestamps.length != values.length) {
        throw new IllegalArgumentException(
            "backfill series "
                + labels
                + ": "
                + timestamps.length
                + " timestamps, "
                + values.length
                + " values");
      }
      timestamps = timestamps.clone();
      values = values.clone();
    }

    @Override
    public long[] timestamps() {
      return timestamps.clone();
    }

    @Override
    public double[] values() {
      return values.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Samples s
          && labels.equals(s.labels)
          && Arrays.equals(timestamps, s.timestamps)
          && Arrays.equals(values, s.values);
    }

    @Override
    public int hashCode() {
      return 31 * (31 * labels.hashCode() + Arrays.hashCode(timestamps)) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
      return "Samples[" + labels + ", " + timestamps.length + " samples]";
    }
  }
}
