package dev.infermon.tsdb.head;

import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * The lowest sample timestamp the head committed in each second of the last {@link #SECONDS}: the
 * head's {@link dev.infermon.storage.AppendWatermark}. A mark is the second it was read in; {@link
 * #lowestSince} takes the minimum over that second (and the one before it, so that a commit counted
 * just before the mark's second began is not missed by a rounding) up to now.
 *
 * <p>Threading: thread-safe; a commit and a lookup each take the lock once, for a few hundred array
 * reads at most.
 */
final class CommitTimes {
  /** How far back the head keeps track: twice a results cache entry's age. */
  static final int SECONDS = 1200;

  private final LongSupplier nanos;
  private final long[] second = new long[SECONDS];
  private final long[] lowest = new long[SECONDS];

  CommitTimes(LongSupplier nanos) {
    this.nanos = nanos;
    java.util.Arrays.fill(second, Long.MIN_VALUE);
  }

  private long now() {
    return Math.floorDiv(nanos.getAsLong(), 1_000_000_000L);
  }

  long mark() {
    return now();
  }

  /** A commit whose lowest sample is at {@code t} is visible to readers. */
  synchronized void committed(long t) {
    long s = now();
    int i = (int) Math.floorMod(s, (long) SECONDS);
    if (second[i] != s) {
      second[i] = s;
      lowest[i] = t;
    } else if (t < lowest[i]) {
      lowest[i] = t;
    }
  }

  synchronized OptionalLong lowestSince(long mark) {
    long s = now();
    long from = mark - 1;
    if (s - from >= SECONDS) {
      return OptionalLong.empty();
    }
    long low = Long.MAX_VALUE;
    for (long k = Math.max(from, s - SECONDS + 1); k <= s; k++) {
      int i = (int) Math.floorMod(k, (long) SECONDS);
      if (second[i] == k && lowest[i] < low) {
        low = lowest[i];
      }
    }
    return OptionalLong.of(low);
  }
}
