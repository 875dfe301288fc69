package dev.infermon.llm.inventory;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;

/**
 * The fleet inventory, read once per {@code end} time, look-back window and short period, and
 * shared by every request that asks for the same time and window meanwhile (a dashboard page's
 * panel requests all carry the same step-aligned {@code end}). Reading it costs a series lookup
 * over every engine family of the window (0.8 s for 130 targets over ten minutes), which used to be
 * paid by every request.
 *
 * <p>Staleness bound: an answer is at most {@code maxAgeNanos} old on the wall clock (computed no
 * earlier than that before the request), and always for exactly the requested time and window. A
 * target or family that appears within that period shows up on the next read after it.
 *
 * <p>Past that age an answer is still reused, exactly, while the storage committed no sample at or
 * before its time since the read began ({@link Watermark}, a mark read before each read): every
 * query of a read looks at samples at or before its time only (the series of {@code [time - window,
 * time]}, {@code up} and the activity subqueries at {@code time}), so their answers are the same. A
 * dashboard refreshed over a window in the past, or over a store nobody writes to, reads the
 * inventory once; one whose end is ahead of the newest scrape (the UI rounds it up to the step)
 * reads it again on each refresh after the age, as new scrapes land before its end. Without a
 * watermark (a remote backend) only the age applies.
 *
 * <p>Keyed by window: the dashboard (10 minutes), lint (an hour) and diagnosis (its own window)
 * look back over different periods and never share an answer; per window one entry is kept, the
 * latest time asked for, and at most {@link #WINDOWS} windows, the least recently used dropped
 * first.
 *
 * <p>Threading: thread-safe. Concurrent requests for the same time and window wait for one read
 * (single flight); a failed read is not kept, so the next request tries again.
 */
final class InventoryCache {
  /** Windows kept at once: the dashboard's, lint's and a few diagnosis windows. */
  static final int WINDOWS = 8;

  /** Reads the inventory at a time over a look-back window; called without holding a lock. */
  @FunctionalInterface
  interface Reader {
    Inventory read(long timeMs, long windowMs);
  }

  /**
   * What the storage the reader reads committed since a mark: the backend's {@link
   * dev.infermon.promql.QueryBackend#commitMark()} and {@link
   * dev.infermon.promql.QueryBackend#lowestCommittedSince(long)}. Thread-safe.
   */
  interface Watermark {
    /** A mark, read before a read. */
    long mark();

    /**
     * The lowest sample timestamp committed since {@code mark}, {@link Long#MAX_VALUE} when none;
     * empty when the storage no longer tells that far back.
     */
    java.util.OptionalLong lowestSince(long mark);
  }

  private final Reader reader;
  private final LongSupplier nanoClock;
  private final long maxAgeNanos;
  private final Watermark watermark; // null: only the age tells

  // guarded by this; access order: the eldest is the least recently asked-for window
  private final Map<Long, Entry> entries =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Entry> eldest) {
          return size() > WINDOWS;
        }
      };

  /**
   * @param reader reads the inventory
   * @param nanoClock the wall clock for the age ({@link System#nanoTime})
   * @param maxAgeNanos how long an inventory is reused whatever the storage did; 0 disables every
   *     reuse
   */
  InventoryCache(Reader reader, LongSupplier nanoClock, long maxAgeNanos) {
    this(reader, nanoClock, maxAgeNanos, null);
  }

  /**
   * As {@link #InventoryCache(Reader, LongSupplier, long)}, reusing an older answer while {@code
   * watermark} says nothing at or before its time was committed since its read began.
   *
   * @param watermark what the storage the reader reads committed since a mark; null when unknown
   */
  InventoryCache(Reader reader, LongSupplier nanoClock, long maxAgeNanos, Watermark watermark) {
    this.reader = reader;
    this.nanoClock = nanoClock;
    this.maxAgeNanos = maxAgeNanos;
    this.watermark = watermark;
  }

  /**
   * The inventory at {@code timeMs} over {@code windowMs}, read now or shared from a read at most
   * the bound ago.
   */
  Inventory get(long timeMs, long windowMs) {
    long now = nanoClock.getAsLong();
    CompletableFuture<Inventory> mine;
    Entry e;
    synchronized (this) {
      e = entries.get(windowMs);
      if (e != null
          && e.timeMs == timeMs
          && (now - e.startedNanos <= maxAgeNanos || unchanged(e))) {
        mine = null;
      } else {
        mine = new CompletableFuture<>();
        // the mark before the read: a commit while it runs is seen as one since the mark
        e = new Entry(timeMs, now, watermark == null ? 0 : watermark.mark(), mine);
        entries.put(windowMs, e);
      }
    }
    if (mine != null) {
      try {
        mine.complete(reader.read(timeMs, windowMs));
      } catch (RuntimeException | Error x) {
        synchronized (this) {
          entries.remove(windowMs, e);
        }
        mine.completeExceptionally(x);
        throw x;
      }
    }
    return join(e.value);
  }

  /**
   * Whether nothing at or before the entry's time was committed since its read began (false without
   * a watermark, with reuse disabled, or where the watermark no longer reaches back).
   */
  private boolean unchanged(Entry e) {
    if (watermark == null || maxAgeNanos <= 0) {
      return false;
    }
    java.util.OptionalLong low = watermark.lowestSince(e.mark);
    return low.isPresent() && low.getAsLong() > e.timeMs;
  }

  private static Inventory join(CompletableFuture<Inventory> f) {
    try {
      return f.get();
    } catch (InterruptedException x) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the inventory", x);
    } catch (ExecutionException x) {
      if (x.getCause() instanceof RuntimeException) {
        throw (RuntimeException) x.getCause();
      }
      if (x.getCause() instanceof Error) {
        throw (Error) x.getCause();
      }
      throw new IllegalStateException(x.getCause());
    }
  }

  /**
   * One read, started at {@code startedNanos} after the watermark's {@code mark}: the age counts
   * from the start of the read.
   */
  private record Entry(
      long timeMs, long startedNanos, long mark, CompletableFuture<Inventory> value) {}
}
