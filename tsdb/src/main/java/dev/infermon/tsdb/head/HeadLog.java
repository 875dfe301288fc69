package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;

/**
 * What the head writes ahead of making data visible: the write-ahead log implements it.
 *
 * <p>Order: {@link #logSeries} is called when a series is created, before any sample of it is
 * logged; a commit calls {@link #logSamples} once with all its samples, then {@link #commit()}, and
 * only when that returns are the samples made visible. If either throws, the commit fails with a
 * {@link dev.infermon.storage.StorageException} and nothing of it becomes visible.
 *
 * <p>Threading: implementations must be thread-safe; many appenders create series and commit at
 * once. {@code logSeries} is called while the head holds a lock on a bin of its series map, so it
 * must be quick (buffer, do not sync). Buffer ownership: the arrays passed to {@code logSamples}
 * belong to the caller and are valid only during the call; copy what you keep.
 *
 * <p>Replay does not go through this interface: the log calls {@link Head#replaySeries} and {@link
 * Head#replaySample}, which log nothing.
 */
public interface HeadLog {
  /** A new series with its stable reference. */
  void logSeries(long ref, Labels labels);

  /**
   * The samples of one commit, in append order: {@code refs[i]} at {@code timestamps[i]} with
   * {@code values[i]} (raw bits matter: staleness markers), for {@code i < count}.
   */
  void logSamples(long[] refs, long[] timestamps, double[] values, int count);

  /** The durability point of one commit; its samples become visible after this returns. */
  void commit();

  /** A log that keeps nothing (tests, benchmarks, a head without persistence). */
  HeadLog NONE =
      new HeadLog() {
        @Override
        public void logSeries(long ref, Labels labels) {}

        @Override
        public void logSamples(long[] refs, long[] timestamps, double[] values, int count) {}

        @Override
        public void commit() {}
      };
}
