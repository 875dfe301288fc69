package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.storage.Appender;
import dev.infermon.storage.DuplicateSampleException;
import dev.infermon.storage.OutOfBoundsException;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.StorageException;
import dev.infermon.storage.TooFarInFutureException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A head transaction, as Prometheus's headAppender: samples are checked when appended (against the
 * committed series and this transaction's earlier samples) and buffered; commit logs them, then
 * applies them series by series, checking again because another transaction may have committed
 * newer samples meanwhile; those losers are dropped and counted, as in Prometheus.
 *
 * <p>Series are created on first append (so the returned reference is stable) and marked pending
 * until commit or rollback, which keeps truncation from removing them under the transaction.
 *
 * <p>Not thread-safe: one thread at a time, per {@link Appender}'s contract.
 */
final class HeadAppender implements Appender {
  private final Head head;
  private final long minValidTime;
  private final long maxValidTime;
  private SeriesSampleBuffer buf;
  private final List<Labels> metadataLabels = new ArrayList<>();
  private final List<Metadata> metadata = new ArrayList<>();
  private boolean closed;
  private boolean failed;

  HeadAppender(Head head, long minValidTime, long maxValidTime) {
    this.head = head;
    this.minValidTime = minValidTime;
    this.maxValidTime = maxValidTime;
    this.buf = head.sampleBuffers.take();
  }

  @Override
  public Labels storedLabels(long ref, Labels labels) {
    MemSeries s = head.seriesById(ref);
    Labels own = s == null ? null : s.adopt(labels);
    return own == null ? labels : own;
  }

  @Override
  public long append(long ref, Labels labels, long t, double v) {
    checkOpen();
    if (t < minValidTime || t > maxValidTime) {
      throw outOfBounds(t, labels);
    }
    MemSeries s = head.seriesFor(ref, labels);
    long bits = Double.doubleToRawLongBits(v);
    int latest = buf.latest(s.id);
    if (latest >= 0) {
      // Not the series' first sample in this transaction: order against the pending one.
      long last = buf.timestamps[latest];
      if (t > last) {
        buf.add(s, t, v);
      } else if (t < last) {
        throw outOfOrder(t, last, labels);
      } else if (Double.doubleToRawLongBits(buf.values[latest]) != bits) {
        throw duplicate(t, labels);
      }
      return s.id;
    }
    int verdict;
    while (true) {
      synchronized (s) {
        if (!s.isRemoved()) {
          verdict = s.appendable(t, bits);
          if (latest == -2 && verdict != MemSeries.OUT_OF_ORDER && verdict != MemSeries.DUPLICATE) {
            s.addPending();
            buf.touch(s);
          }
          break;
        }
      }
      s = head.seriesFor(0, labels); // truncated meanwhile: find or create it again
    }
    switch (verdict) {
      case MemSeries.OK:
        buf.add(s, t, v);
        return s.id;
      case MemSeries.SAME_AS_LAST:
        return s.id;
      case MemSeries.OUT_OF_ORDER:
        throw outOfOrder(t, Long.MIN_VALUE, labels);
      default:
        throw duplicate(t, labels);
    }
  }

  private OutOfBoundsException outOfBounds(long t, Labels labels) {
    if (t > maxValidTime) {
      head.counters.tooFarInFuture.increment();
      return new TooFarInFutureException(
          "sample at "
              + time(t)
              + " is later than "
              + time(maxValidTime)
              + " (now plus the future window of "
              + head.options.futureWindowMs() / 1000
              + " s) for "
              + labels);
    }
    head.counters.outOfBounds.increment();
    return new OutOfBoundsException("t=" + t + " is before " + minValidTime + " for " + labels);
  }

  /** A time for a message: milliseconds and, where it is a date, the date. */
  private static String time(long t) {
    try {
      return "t=" + t + " (" + Instant.ofEpochMilli(t) + ")";
    } catch (java.time.DateTimeException e) {
      return "t=" + t;
    }
  }

  private OutOfOrderSampleException outOfOrder(long t, long last, Labels labels) {
    head.counters.outOfOrder.increment();
    return new OutOfOrderSampleException(
        "t=" + t + (last == Long.MIN_VALUE ? "" : " after t=" + last) + " for " + labels);
  }

  private DuplicateSampleException duplicate(long t, Labels labels) {
    head.counters.duplicate.increment();
    return new DuplicateSampleException("t=" + t + " for " + labels);
  }

  @Override
  public void updateMetadata(Labels labels, Metadata m) {
    checkOpen();
    metadataLabels.add(labels);
    metadata.add(m);
  }

  /**
   * Logs, then applies. When logging fails the transaction is rolled back here and the log's error
   * (for a full disk a {@link dev.infermon.storage.StorageUnavailableException} naming the cause)
   * is thrown; a caller's {@link #rollback()} after that does nothing.
   */
  @Override
  public void commit() {
    checkOpen();
    closed = true;
    try {
      if (buf.size > 0) {
        try {
          HeadLog log = head.options.log();
          log.logSamples(buf.refs, buf.timestamps, buf.values, buf.size);
          log.commit();
        } catch (RuntimeException e) {
          failed = true;
          throw e instanceof StorageException
              ? e
              : new StorageException("write-ahead log failed: " + e.getMessage(), e);
        }
        apply();
      }
      for (int i = 0; i < metadata.size(); i++) {
        head.metadata.add(metadataLabels.get(i).metricName(), metadata.get(i));
      }
    } finally {
      release();
    }
  }

  private void apply() {
    long mint = Long.MAX_VALUE;
    long maxt = Long.MIN_VALUE;
    long appended = 0;
    long range = head.options.chunkRangeMs();
    int target = head.options.samplesPerChunk();
    ChunkStore store = head.chunkStore();
    for (int i = 0; i < buf.size; i++) {
      MemSeries s = buf.series[i];
      long t = buf.timestamps[i];
      double v = buf.values[i];
      int verdict;
      synchronized (s) {
        verdict = s.appendable(t, Double.doubleToRawLongBits(v));
        if (verdict == MemSeries.OK) {
          s.append(t, v, range, target, store);
        }
      }
      if (verdict == MemSeries.OK) {
        appended++;
        mint = Math.min(mint, t);
        maxt = Math.max(maxt, t);
      } else if (verdict == MemSeries.OUT_OF_ORDER) {
        head.counters.outOfOrder.increment(); // lost a race with another transaction
      } else if (verdict == MemSeries.DUPLICATE) {
        head.counters.duplicate.increment();
      }
    }
    head.counters.samplesAppended.add(appended);
    if (appended > 0) {
      head.widenTimeRange(mint, maxt);
      head.commitTimes.committed(mint); // after the samples are visible: see AppendWatermark
    }
  }

  @Override
  public void rollback() {
    if (failed) {
      return; // the failed commit rolled back already
    }
    checkOpen();
    closed = true;
    release();
  }

  private void release() {
    for (int i = 0; i < buf.touchedCount; i++) {
      MemSeries s = buf.touched[i];
      synchronized (s) {
        s.releasePending();
      }
    }
    head.sampleBuffers.give(buf);
    buf = null;
    metadata.clear();
    metadataLabels.clear();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("appender already committed or rolled back");
    }
  }
}
