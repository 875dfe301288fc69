package dev.infermon.web.remotewrite;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import java.util.List;
import java.util.Objects;

/**
 * A decoded remote-write 1.0 {@code prometheus.WriteRequest}: series with their samples, and metric
 * metadata. Exemplars and native histograms are skipped by the decoder. Immutable.
 */
public record WriteRequest(List<Series> series, List<FamilyMetadata> metadata) {
  public WriteRequest {
    series = List.copyOf(series);
    metadata = List.copyOf(metadata);
  }

  /** Total samples over all series. */
  public long sampleCount() {
    long n = 0;
    for (Series s : series) {
      n += s.timestamps().length;
    }
    return n;
  }

  /**
   * One {@code TimeSeries}: validated labels and samples in the order sent. The arrays are owned by
   * the record; callers must not modify them.
   */
  public record Series(Labels labels, long[] timestamps, double[] values) {
    public Series {
      Objects.requireNonNull(labels, "labels");
      if (timestamps.length != values.length) {
        throw new IllegalArgumentException(
            "timestamps and values differ in length: "
                + timestamps.length
                + " vs "
                + values.length);
      }
    }
  }

  /** One {@code MetricMetadata} entry. */
  public record FamilyMetadata(String metricFamilyName, Metadata metadata) {}
}
