package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The head's series by labels and by id. Ids are dense and never reused, so the by-id table is a
 * paged array. Thread-safe: the labels map is concurrent; the id table's pages are atomic arrays
 * and the page directory is replaced (never changed) when it grows.
 */
final class SeriesTable {
  private static final int PAGE_BITS = 14;
  private static final int PAGE_SIZE = 1 << PAGE_BITS;

  private final ConcurrentHashMap<Labels, MemSeries> byLabels = new ConcurrentHashMap<>();
  private volatile AtomicReferenceArray<MemSeries>[] pages = newPages(0);
  private int nextId = 1; // guarded by this; 0 means "no reference" at the seam

  MemSeries get(Labels labels) {
    return byLabels.get(labels);
  }

  /** The series with this id, or null. */
  MemSeries get(long id) {
    if (id <= 0 || id > Integer.MAX_VALUE) {
      return null;
    }
    AtomicReferenceArray<MemSeries>[] p = pages;
    int page = (int) (id >>> PAGE_BITS);
    if (page >= p.length || p[page] == null) {
      return null;
    }
    return p[page].get((int) id & (PAGE_SIZE - 1));
  }

  /**
   * The series with these labels, created by {@code factory} with a fresh id if absent. The map is
   * keyed by the series' own (interned) labels, so the caller's instance is not retained. The
   * factory runs at most once per absent label set, while the map's bin for it is locked.
   */
  MemSeries getOrCreate(Labels labels, StringInterner interner, SeriesFactory factory) {
    MemSeries s = byLabels.get(labels);
    if (s != null) {
      return s;
    }
    Labels interned = interner.intern(labels);
    boolean[] created = new boolean[1];
    s =
        byLabels.computeIfAbsent(
            interned,
            l -> {
              MemSeries fresh = factory.create(allocateId(0), l);
              put(fresh);
              created[0] = true;
              return fresh;
            });
    if (!created[0]) {
      interner.release(interned); // another thread created it first
    }
    return s;
  }

  /** For replay: creates the series with the given id; the caller checked the labels are absent. */
  MemSeries createWithId(int id, Labels labels, StringInterner interner, SeriesFactory factory) {
    allocateId(id);
    Labels interned = interner.intern(labels);
    MemSeries s = factory.create(id, interned);
    MemSeries prev = byLabels.putIfAbsent(interned, s);
    if (prev != null) {
      interner.release(interned);
      return prev;
    }
    put(s);
    return s;
  }

  /** Removes a series from both maps (a no-op if another series took its labels since). */
  void remove(MemSeries s) {
    byLabels.remove(s.labels, s);
    AtomicReferenceArray<MemSeries> page = pages[s.id >>> PAGE_BITS];
    page.compareAndSet(s.id & (PAGE_SIZE - 1), s, null);
  }

  int size() {
    return byLabels.size();
  }

  void forEach(Consumer<MemSeries> c) {
    byLabels.values().forEach(c);
  }

  /** Makes a series from its id and interned labels (and indexes and logs it). */
  interface SeriesFactory {
    MemSeries create(int id, Labels interned);
  }

  /** A fresh id, or (when {@code wanted} > 0) that id, keeping later fresh ids above it. */
  private synchronized int allocateId(int wanted) {
    if (wanted > 0) {
      nextId = Math.max(nextId, wanted + 1);
      return wanted;
    }
    if (nextId == Integer.MAX_VALUE) {
      throw new IllegalStateException("series id space exhausted");
    }
    return nextId++;
  }

  private synchronized void put(MemSeries s) {
    int page = s.id >>> PAGE_BITS;
    AtomicReferenceArray<MemSeries>[] p = pages;
    if (page >= p.length || p[page] == null) {
      AtomicReferenceArray<MemSeries>[] grown = Arrays.copyOf(p, Math.max(p.length, page + 1));
      grown[page] = new AtomicReferenceArray<>(PAGE_SIZE);
      pages = grown;
      p = grown;
    }
    p[page].set(s.id & (PAGE_SIZE - 1), s);
  }

  @SuppressWarnings("unchecked")
  private static AtomicReferenceArray<MemSeries>[] newPages(int n) {
    return (AtomicReferenceArray<MemSeries>[]) new AtomicReferenceArray<?>[n];
  }
}
