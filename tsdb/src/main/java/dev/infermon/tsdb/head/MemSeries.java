package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.chunkenc.XorChunk;
import java.util.Arrays;

/**
 * One series in the head: references to its completed chunks in the head's {@link ChunkStore} (with
 * each chunk's time range) and the open chunk, which is this object itself: a series extends {@link
 * XorChunk} rather than pointing to one, one object per series instead of two (a header and a
 * reference less, and no dependent load per appended sample). No open chunk is {@code numSamples()
 * == 0}; a cut hands the chunk's bytes to the store and restarts it in a new array.
 *
 * <p>Threading: every mutable field, the inherited chunk's included, is guarded by this object's
 * monitor; so is every inherited {@link XorChunk} method. Readers take a {@link SeriesSnapshot}
 * under the monitor and decode outside it. The array of completed chunks is replaced, never
 * changed, when a chunk is cut or truncated; the open chunk's array is only appended to, and a cut
 * or truncation leaves it to the snapshots that hold it and takes a new one.
 */
final class MemSeries extends XorChunk {
  /** Results of {@link #appendable}. */
  static final int OK = 0;

  static final int SAME_AS_LAST = 1;
  static final int OUT_OF_ORDER = 2;
  static final int DUPLICATE = 3;

  private static final long[] NONE = new long[0];

  final Labels labels;
  final int id;

  // The caller's instance last found equal to labels. A scrape cache hands the same instance back
  // every scrape, so an identity check replaces a full comparison of every string. Not guarded:
  // Labels is immutable (final fields), and a stale read only costs one equals.
  private Labels knownAlias;

  // The completed chunks, oldest first, three longs each: reference in the store, minTime,
  // maxTime. One array rather than one for references and one for ranges: 16 bytes less per series.
  private long[] done = NONE;
  private long nextAt;
  private int pendingCommits;
  private boolean removed;

  MemSeries(Labels labels, int id) {
    this.labels = labels;
    this.id = id;
  }

  /**
   * Whether {@code l} equals this series' labels; remembers {@code l} so that the same instance is
   * recognised by identity next time. Any thread, no lock.
   */
  boolean isNamedBy(Labels l) {
    if (l == knownAlias || l == labels) {
      return true;
    }
    if (!labels.equals(l)) {
      return false;
    }
    knownAlias = l;
    return true;
  }

  /**
   * This series' own label set if {@code l} equals it, else null. Unlike {@link #isNamedBy}, it
   * does not remember {@code l}: a caller adopting the series' instance drops its own copy, which
   * must not stay reachable from here.
   */
  Labels adopt(Labels l) {
    if (l == labels) {
      return labels;
    }
    if (!labels.equals(l)) {
      return null;
    }
    if (knownAlias == l) {
      knownAlias = null;
    }
    return labels;
  }

  /**
   * Whether a sample could be appended now: ok, an exact repeat of the newest sample (accepted, not
   * stored, as Prometheus), or rejected. Caller holds the monitor.
   */
  int appendable(long t, long valueBits) {
    if (isEmpty()) {
      return OK;
    }
    long maxt = maxTime();
    if (t > maxt) {
      return OK;
    }
    if (t == maxt) {
      return Double.doubleToRawLongBits(lastValue()) == valueBits ? SAME_AS_LAST : DUPLICATE;
    }
    return OUT_OF_ORDER;
  }

  /**
   * Appends a sample that {@link #appendable} accepted, cutting a chunk the way Prometheus does: at
   * the chunk range's boundary, or earlier so the range's chunks hold about {@code target} samples
   * each, and at twice the target at the latest; a cut chunk goes to {@code store}. Caller holds
   * the monitor.
   */
  void append(long t, double v, long chunkRange, int target, ChunkStore store) {
    int n = numSamples();
    if (n == 0) {
      restart(0); // no previous chunk to size this one by
      nextAt = rangeEnd(t, chunkRange);
    } else {
      if (n == target / 4) {
        nextAt = chunkEndTime(minTime(), maxTime(), nextAt);
      }
      if (t >= nextAt || n >= 2 * target) {
        cut(store);
        nextAt = rangeEnd(t, chunkRange);
      }
    }
    append(t, v);
  }

  private void cut(ChunkStore store) {
    int n = done.length;
    int len = length();
    long[] d = Arrays.copyOf(done, n + 3);
    d[n] = store.put(snapshotBuffer(), 0, len, maxTime());
    d[n + 1] = minTime();
    d[n + 2] = maxTime();
    done = d;
    // The next chunk will likely be about as long: grow towards that in quarters rather than by
    // 1.5x from a small start. A new array: snapshots may still be reading the old one.
    restart(len);
  }

  static long rangeEnd(long t, long chunkRange) {
    long end = Math.floorDiv(t, chunkRange) * chunkRange + chunkRange;
    return end < t ? Long.MAX_VALUE : end; // the range holding Long.MAX_VALUE ends there
  }

  /**
   * Prometheus's computeChunkEndTime with the chunk a quarter full: the end that splits what is
   * left of the range into equal chunks at the current rate.
   */
  static long chunkEndTime(long start, long cur, long maxT) {
    double n = (double) (maxT - start) / ((double) (cur - start + 1) * 4);
    if (n <= 1) {
      return maxT;
    }
    return (long) (start + (maxT - start) / Math.floor(n));
  }

  /**
   * The series now, with the view of {@code store} (this series' store, which must be read under
   * the monitor so that it holds every chunk a reference in the snapshot names). Caller holds the
   * monitor.
   */
  SeriesSnapshot snapshot(ChunkStore store) {
    if (isEmpty()) {
      return new SeriesSnapshot(store.view(), done, null, 0, 0, 0, 0);
    }
    return new SeriesSnapshot(
        store.view(), done, snapshotBuffer(), length(), numSamples(), minTime(), maxTime());
  }

  /**
   * Drops chunks whose samples are all before {@code mint}; returns how many chunks were dropped.
   * Caller holds the monitor.
   */
  int truncateBefore(long mint) {
    int n = done.length / 3;
    int keep = 0;
    while (keep < n && done[3 * keep + 2] < mint) {
      keep++;
    }
    int dropped = keep;
    if (keep == n) {
      done = NONE;
    } else if (keep > 0) {
      done = Arrays.copyOfRange(done, 3 * keep, done.length);
    }
    if (done.length == 0 && !isEmpty() && maxTime() < mint) {
      clear();
      dropped++;
    }
    return dropped;
  }

  /**
   * Time of the series' first sample, {@link Long#MAX_VALUE} when empty. Caller holds the monitor.
   */
  long firstTime() {
    return done.length > 0 ? done[1] : isEmpty() ? Long.MAX_VALUE : minTime();
  }

  /** Whether there is no open chunk (then no completed chunk either). Caller holds the monitor. */
  boolean isEmpty() {
    return numSamples() == 0;
  }

  void addPending() {
    pendingCommits++;
  }

  void releasePending() {
    pendingCommits--;
  }

  boolean hasPending() {
    return pendingCommits > 0;
  }

  boolean isRemoved() {
    return removed;
  }

  void markRemoved() {
    removed = true;
  }

  /** Number of chunks, open one included. Caller holds the monitor. */
  int chunkCount() {
    return done.length / 3 + (isEmpty() ? 0 : 1);
  }
}
