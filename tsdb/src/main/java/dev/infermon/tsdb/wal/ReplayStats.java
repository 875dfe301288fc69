package dev.infermon.tsdb.wal;

import java.util.List;

/**
 * What a replay did.
 *
 * @param series series records read
 * @param samples samples handed to the sink
 * @param droppedSamples samples older than the minimum valid time, never handed over
 * @param orphanSamples samples whose series record never appeared (it was in a damaged part of the
 *     log); lost
 * @param lostSeries distinct series references of the orphan samples
 * @param corruptions damaged places found: byte ranges skipped, bad segment headers, missing
 *     segments
 * @param skippedBytes bytes of the log that could not be read and were skipped
 * @param repairs one message per repair: which file was repaired where, why, and what was lost
 * @param checkpoint index of the checkpoint read, or -1
 * @param segmentsRead segments read after the checkpoint
 * @param maxRef the largest series reference the log names (series or sample records), 0 when none;
 *     new series must be numbered above it, or orphan samples would be attributed to them at the
 *     next replay
 * @param millis wall time of the replay
 */
public record ReplayStats(
    long series,
    long samples,
    long droppedSamples,
    long orphanSamples,
    long lostSeries,
    long corruptions,
    long skippedBytes,
    List<String> repairs,
    int checkpoint,
    int segmentsRead,
    long maxRef,
    long millis) {
  public ReplayStats {
    repairs = List.copyOf(repairs);
  }
}
