package dev.infermon.llm.inventory;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.promql.QueryBackend;
import java.util.concurrent.TimeUnit;

/**
 * The fleet as stored: which targets run which engine and release, with which families, labels and
 * buckets ({@link StoredInventory}, through the {@link QueryBackend} only). One per process, shared
 * by the LLM layer's services (the dashboard, diagnosis, lint), so that the inventory is read in
 * one place with one staleness rule: the same time and look-back window asked for within {@link
 * #MAX_AGE_MS} of wall time get one read ({@link InventoryCache}), and so do later requests for
 * them while the backend says nothing at or before that time was committed since ({@link
 * QueryBackend#lowestCommittedSince(long)}).
 *
 * <p>The window is the caller's: the dashboard looks back ten minutes, lint an hour, diagnosis over
 * the window it diagnoses; each window is cached on its own, so no caller sees another's period.
 *
 * <p>Threading: thread-safe when the backend is; concurrent requests for the same time and window
 * wait for one read. Errors are the backend's ({@code QueryException} and its kinds), not kept: the
 * next request reads again.
 */
public final class InventoryService {
  /** How long one read is reused for the same time and window: the staleness bound. */
  public static final long MAX_AGE_MS = 10_000;

  private final Catalog catalog;
  private final InventoryCache cache;

  public InventoryService(Catalog catalog, QueryBackend backend) {
    if (catalog == null || backend == null) {
      throw new IllegalArgumentException("catalog and backend are required");
    }
    this.catalog = catalog;
    StoredInventory stored = new StoredInventory(catalog);
    this.cache =
        new InventoryCache(
            (t, w) -> stored.read(backend, t, w),
            System::nanoTime,
            TimeUnit.MILLISECONDS.toNanos(MAX_AGE_MS),
            watermark(backend));
  }

  /** The backend's commit watermark for the cache, null when it has none (a remote store). */
  static InventoryCache.Watermark watermark(QueryBackend backend) {
    if (backend.commitMark().isEmpty()) {
      return null;
    }
    return new InventoryCache.Watermark() {
      @Override
      public long mark() {
        // present once, present always: the backend's watermark is fixed at its construction
        return backend.commitMark().orElseThrow();
      }

      @Override
      public java.util.OptionalLong lowestSince(long mark) {
        return backend.lowestCommittedSince(mark);
      }
    };
  }

  /** The catalog the inventory is detected with. */
  public Catalog catalog() {
    return catalog;
  }

  /**
   * The fleet as of {@code timeMs}, from the series with samples in {@code [timeMs - windowMs,
   * timeMs]}, read at most {@link #MAX_AGE_MS} ago.
   *
   * @throws IllegalArgumentException when the window is not positive
   */
  public Inventory inventory(long timeMs, long windowMs) {
    if (windowMs <= 0) {
      throw new IllegalArgumentException("inventory window must be positive, got " + windowMs);
    }
    return cache.get(timeMs, windowMs);
  }
}
