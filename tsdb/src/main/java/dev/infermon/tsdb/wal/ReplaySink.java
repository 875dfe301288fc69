package dev.infermon.tsdb.wal;

import dev.infermon.model.labels.Labels;

/**
 * Receives what a replay reads, in log order.
 *
 * <p>A sample may name a series whose record comes later in the log (two appenders committed in the
 * opposite order of the series' creation); the sink says so by returning false, and the replay
 * holds the sample back until the series appears. The sink alone knows which references it took: it
 * answers from what it feeds (the head's own lookup of the series, say), so that telling an unknown
 * reference costs no second lookup per sample.
 *
 * <p>Threading: called from the replaying thread only, one call at a time. Errors: a record the
 * sink cannot take (a reference that names other labels already, say) is the sink's to report and
 * skip; an exception thrown from it ends the replay and reaches its caller. Ownership: the labels
 * passed to {@link #series} are the sink's to keep; the replay holds no reference to the sink once
 * it returns.
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
