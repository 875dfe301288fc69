package dev.infermon.tsdb.wal;

import dev.infermon.model.labels.Labels;

/**
 * Receives what a replay reads, in log order. Called from the replaying thread only.
 *
 * <p>A sample may name a series whose record comes later in the log (two appenders committed in the
 * opposite order of the series' creation); the sink says so by returning false, and the replay
 * holds the sample back until the series appears.
 */
public interface ReplaySink {
  /** A series record: {@code ref} names {@code labels} from now on. May repeat a known pair. */
  void series(long ref, Labels labels);

  /**
   * A sample.
   *
   * @return false when {@code ref} names no series yet; true when the sample was taken or
   *     deliberately dropped (for example older than the head accepts)
   */
  boolean sample(long ref, long t, double v);
}
