package dev.infermon.tsdb;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.head.Head;
import dev.infermon.tsdb.wal.ReplaySink;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a replay into the head, which knows the references the log has named (its series and replay
 * aliases: one lookup per sample finds the series and tells an unknown reference). Drops samples
 * beyond the future window, which a process without the window (or with a wider one) accepted: in
 * the head they would move its time range ahead and make every present sample out of bounds.
 */
final class HeadReplaySink implements ReplaySink {
  private static final Logger log = LoggerFactory.getLogger(Tsdb.class);

  private final Head head;
  private final long maxValid;
  private long future;
  private long firstFutureRef;
  private long firstFutureT;
  private long latestFutureT = Long.MIN_VALUE;

  HeadReplaySink(Head head) {
    this.head = head;
    this.maxValid = head.maxValidTime();
  }

  @Override
  public void series(long ref, Labels labels) {
    try {
      head.replaySeries(ref, labels);
    } catch (IllegalArgumentException e) {
      log.warn("write-ahead log series record skipped: {}", e.getMessage());
    }
  }

  @Override
  public boolean sample(long ref, long t, double v) {
    if (t > maxValid) {
      if (!head.replayKnows(ref)) {
        return false;
      }
      if (future++ == 0) {
        firstFutureRef = ref;
        firstFutureT = t;
      }
      latestFutureT = Math.max(latestFutureT, t);
      return true;
    }
    return head.replaySample(ref, t, v) != Head.Replayed.NO_SERIES;
  }

  long future() {
    return future;
  }

  void reportFuture(Duration window) {
    if (future > 0) {
      log.warn(
          "write-ahead log: {} samples later than now plus the future window ({}) dropped at"
              + " replay, the first of series {} at t={}, the latest at t={}; they were accepted"
              + " before the window was enforced",
          future,
          window,
          head.seriesLabels(firstFutureRef),
          firstFutureT,
          latestFutureT);
    }
  }
}
