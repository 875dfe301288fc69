package dev.infermon.tsdb.wal;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.encoding.EncodingBuffer;
import java.util.Arrays;

/**
 * The records of one commit, encoded and framed before the log's lock is taken so that the lock
 * covers only the write. New series come first in the output, whatever order they were added in, so
 * replay always meets a series before its samples. Not thread-safe; reused after {@link #clear()}.
 */
public final class WalBatch {
  private long[] seriesRefs = new long[16];
  private Labels[] seriesLabels = new Labels[16];
  private int seriesCount;
  private final EncodingBuffer sampleFrames = new EncodingBuffer(1024);
  private final EncodingBuffer out = new EncodingBuffer(1024);
  private int sampleCount;

  /** Adds a series record entry: the head created series {@code ref} with these labels. */
  public void series(long ref, Labels labels) {
    if (labels == null || labels.isEmpty()) {
      throw new IllegalArgumentException("series " + ref + " has no labels");
    }
    if (seriesCount == seriesRefs.length) {
      seriesRefs = Arrays.copyOf(seriesRefs, seriesCount * 2);
      seriesLabels = Arrays.copyOf(seriesLabels, seriesCount * 2);
    }
    seriesRefs[seriesCount] = ref;
    seriesLabels[seriesCount] = labels;
    seriesCount++;
  }

  /**
   * Adds the first {@code n} samples of the arrays as one samples record. The arrays are read
   * before returning and not kept.
   */
  public void samples(long[] refs, long[] ts, double[] vs, int n) {
    if (n < 0 || n > refs.length || n > ts.length || n > vs.length) {
      throw new IllegalArgumentException("sample count " + n + " exceeds the arrays given");
    }
    if (n == 0) {
      return;
    }
    int f = WalFormat.beginFrame(sampleFrames);
    WalRecords.encodeSamples(sampleFrames, refs, ts, vs, n);
    WalFormat.endFrame(sampleFrames, f);
    sampleCount += n;
  }

  public boolean isEmpty() {
    return seriesCount == 0 && sampleCount == 0;
  }

  int sampleCount() {
    return sampleCount;
  }

  int seriesCount() {
    return seriesCount;
  }

  public void clear() {
    Arrays.fill(seriesLabels, 0, seriesCount, null);
    seriesCount = 0;
    sampleCount = 0;
    sampleFrames.reset();
    out.reset();
  }

  /** Frames in log order: the series record (when any), then the samples records. */
  EncodingBuffer frames() {
    out.reset();
    if (seriesCount > 0) {
      int f = WalFormat.beginFrame(out);
      WalRecords.encodeSeries(out, seriesRefs, seriesLabels, seriesCount);
      WalFormat.endFrame(out, f);
    }
    out.putBytes(sampleFrames.array(), 0, sampleFrames.length());
    return out;
  }
}
