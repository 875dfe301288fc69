package dev.infermon.llm.dashboard;

import dev.infermon.llm.inventory.Inventory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * The fleet inventory, read once per {@code end} time and short period and shared by every
 * dashboard request that asks for the same time meanwhile (a page's panel requests all carry the
 * same step-aligned {@code end}). Reading it costs a series lookup over every engine family of the
 * last ten minutes (0.8 s for 130 targets), which used to be paid by every request.
 *
 * <p>Staleness bound: an answer is at most {@code maxAgeNanos} old on the wall clock (computed no
 * earlier than that before the request), and always for exactly the requested time. A target or
 * family that appears within that period shows up on the next read after it.
 *
 * <p>Threading: thread-safe. Concurrent requests for the same time wait for one read (single
 * flight); a failed read is not kept, so the next request tries again. One entry is kept: the
 * latest time asked for.
 */
final class InventoryCache {
  private final LongFunction<Inventory> reader;
  private final LongSupplier nanoClock;
  private final long maxAgeNanos;
  private Entry entry; // guarded by this

  /**
   * @param reader reads the inventory at a time; called without holding a lock
   * @param nanoClock the wall clock for the age ({@link System#nanoTime})
   * @param maxAgeNanos how long an inventory is reused; 0 disables the reuse
   */
  InventoryCache(LongFunction<Inventory> reader, LongSupplier nanoClock, long maxAgeNanos) {
    this.reader = reader;
    this.nanoClock = nanoClock;
    this.maxAgeNanos = maxAgeNanos;
  }

  /** The inventory at {@code timeMs}, read now or shared from a read at most the bound ago. */
  Inventory get(long timeMs) {
    long now = nanoClock.getAsLong();
    CompletableFuture<Inventory> mine;
    Entry e;
    synchronized (this) {
      e = entry;
      if (e != null && e.timeMs == timeMs && now - e.startedNanos <= maxAgeNanos) {
        mine = null;
      } else {
        mine = new CompletableFuture<>();
        e = new Entry(timeMs, now, mine);
        entry = e;
      }
    }
    if (mine != null) {
      try {
        mine.complete(reader.apply(timeMs));
      } catch (RuntimeException | Error x) {
        synchronized (this) {
          if (entry == e) {
            entry = null;
          }
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
