package dev.infermon.tsdb;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.head.HeadLog;
import dev.infermon.tsdb.wal.WalBatch;
import dev.infermon.tsdb.wal.WalWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The head's write-ahead hook backed by a {@link WalWriter}. New series are queued (the head calls
 * {@link #logSeries} under a lock, so it must not do I/O) and written by the next commit of any
 * thread, ahead of that commit's samples: a commit can only carry samples of series created before
 * it, so a series record always precedes its samples in the log. A commit's samples are encoded
 * into a per-thread batch outside any lock and reach the operating system before {@link #commit()}
 * returns; commits serialize only for the write itself.
 *
 * <p>Threading: thread-safe. Until {@link #attach} (during replay) nothing may be logged.
 */
final class WalHeadLog implements HeadLog {
  private final ThreadLocal<WalBatch> batches = ThreadLocal.withInitial(WalBatch::new);
  private final Object seriesLock = new Object();
  private final Object commitLock = new Object();
  private List<Object[]> pendingSeries = new ArrayList<>();
  private volatile WalWriter wal;

  void attach(WalWriter wal) {
    this.wal = wal;
  }

  @Override
  public void logSeries(long ref, Labels labels) {
    synchronized (seriesLock) {
      pendingSeries.add(new Object[] {ref, labels});
    }
  }

  @Override
  public void logSamples(long[] refs, long[] timestamps, double[] values, int count) {
    batches.get().samples(refs, timestamps, values, count);
  }

  @Override
  public void commit() {
    WalWriter w = wal;
    if (w == null) {
      throw new IllegalStateException("write-ahead log not open yet");
    }
    WalBatch batch = batches.get();
    // Draining and writing under one lock: otherwise another commit could write samples of a
    // series whose record this commit has drained but not yet written.
    synchronized (commitLock) {
      List<Object[]> series = drainSeries();
      for (Object[] s : series) {
        batch.series((Long) s[0], (Labels) s[1]);
      }
      try {
        w.write(batch);
      } catch (RuntimeException e) {
        batch.clear();
        requeue(series);
        throw e;
      }
    }
  }

  private List<Object[]> drainSeries() {
    synchronized (seriesLock) {
      if (pendingSeries.isEmpty()) {
        return List.of();
      }
      List<Object[]> out = pendingSeries;
      pendingSeries = new ArrayList<>();
      return out;
    }
  }

  private void requeue(List<Object[]> series) {
    if (series.isEmpty()) {
      return;
    }
    synchronized (seriesLock) {
      List<Object[]> merged = new ArrayList<>(series);
      merged.addAll(pendingSeries);
      pendingSeries = merged;
    }
  }
}
