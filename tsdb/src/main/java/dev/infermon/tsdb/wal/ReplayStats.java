package dev.infermon.tsdb.wal;

import java.util.List;

/**
 * What a replay did.
 *
 * @param series series records read
 * @param samples samples handed to the sink
 * @param droppedSamples samples older than the minimum valid time, never handed over
 * @param orphanSamples samples whose series never appeared; lost
 * @param repairs one message per repair: which file was cut where, and why
 * @param checkpoint index of the checkpoint read, or -1
 * @param segmentsRead segments read after the checkpoint
 * @param millis wall time of the replay
 */
public record ReplayStats(
    long series,
    long samples,
    long droppedSamples,
    long orphanSamples,
    List<String> repairs,
    int checkpoint,
    int segmentsRead,
    long millis) {
  public ReplayStats {
    repairs = List.copyOf(repairs);
  }
}
