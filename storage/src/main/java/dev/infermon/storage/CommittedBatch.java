package dev.infermon.storage;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import java.util.Arrays;
import java.util.List;

/**
 * The samples (and metadata updates) of one committed transaction, in append order, as a {@link
 * Fanout} hands them to a {@link SampleSink}. Parallel arrays keep a batch at a few objects
 * whatever its size. Immutable once handed out; safe to read from any thread after the hand-off.
 */
public final class CommittedBatch {
  private final Labels[] labels;
  private final long[] timestamps;
  private final double[] values;
  private final int size;
  private final List<MetadataUpdate> metadata;

  /** A metadata update of one series' family, as given to {@link Appender#updateMetadata}. */
  public record MetadataUpdate(Labels labels, Metadata metadata) {}

  CommittedBatch(
      Labels[] labels,
      long[] timestamps,
      double[] values,
      int size,
      List<MetadataUpdate> metadata) {
    this.labels = labels;
    this.timestamps = timestamps;
    this.values = values;
    this.size = size;
    this.metadata = List.copyOf(metadata);
  }

  /** Number of samples. */
  public int size() {
    return size;
  }

  public Labels labels(int i) {
    return labels[check(i)];
  }

  public long timestamp(int i) {
    return timestamps[check(i)];
  }

  /** The value bit for bit (a staleness marker stays one). */
  public double value(int i) {
    return values[check(i)];
  }

  /** Metadata updates of the transaction, in call order. */
  public List<MetadataUpdate> metadata() {
    return metadata;
  }

  private int check(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("sample " + i + " of a batch of " + size);
    }
    return i;
  }

  /** Collects a batch; grows geometrically. Not thread-safe. */
  static final class Builder {
    private Labels[] labels = new Labels[16];
    private long[] timestamps = new long[16];
    private double[] values = new double[16];
    private int size;
    private final List<MetadataUpdate> metadata = new java.util.ArrayList<>();

    void add(Labels l, long t, double v) {
      if (size == labels.length) {
        int n = size * 2;
        labels = Arrays.copyOf(labels, n);
        timestamps = Arrays.copyOf(timestamps, n);
        values = Arrays.copyOf(values, n);
      }
      labels[size] = l;
      timestamps[size] = t;
      values[size] = v;
      size++;
    }

    void addMetadata(Labels l, Metadata m) {
      metadata.add(new MetadataUpdate(l, m));
    }

    boolean isEmpty() {
      return size == 0 && metadata.isEmpty();
    }

    CommittedBatch build() {
      return new CommittedBatch(labels, timestamps, values, size, metadata);
    }
  }
}
