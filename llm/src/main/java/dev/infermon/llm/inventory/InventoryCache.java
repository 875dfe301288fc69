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

  private final Reader reader;
  private final LongSupplier nanoClock;
  private final long maxAgeNanos;

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
   * @param maxAgeNanos how long an inventory is reused; 0 disables the reuse
   */
  InventoryCache(Reader reader, LongSupplier nanoClock, long maxAgeNanos) {
    this.reader = reader;
    this.nanoClock = nanoClock;
    this.maxAgeNanos = maxAgeNanos;
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
      if (e != null && e.timeMs == timeMs && now - e.startedNanos <= maxAgeNanos) {
        mine = null;
      } else {
        mine = new CompletableFuture<>();
        e = new Entry(timeMs, now, mine);
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

  /** One read, started at {@code startedNanos}: the age counts from the start of the read. */
  private record Entry(long timeMs, long startedNanos, CompletableFuture<Inventory> value) {}
}
