package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The head's series by labels and by id.
 *
 * <p>By labels: one open-addressing table of series, probed linearly from the labels' 64-bit hash
 * mixed with a seed of this table's own. A series costs one 4-byte slot at a load of 3/8 to 3/4,
 * 5-11 bytes, where a {@code ConcurrentHashMap} cost a 32-byte node and its table slot (~40 bytes
 * per series at 51 k series). A removed series leaves a tombstone, so an entry never moves while
 * readers probe; the table is rebuilt into a new array when live entries and tombstones fill three
 * quarters of it.
 *
 * <p>By id: ids are dense and never reused, so the by-id table is a paged array.
 *
 * <p>Threading: lookups take no lock. They read the current table (a volatile field) and its slots
 * with acquire semantics; writers (create, remove, rebuild) hold this object's monitor, fill a slot
 * with release semantics and publish a rebuilt table only once it is complete. A lookup racing a
 * creation may miss the new series; {@link #getOrCreate} then looks again under the monitor, so a
 * label set never gets two series. The by-id pages are atomic arrays and the page directory is
 * replaced (never changed) when it grows.
 */
final class SeriesTable {
  private static final int PAGE_BITS = 14;
  private static final int PAGE_SIZE = 1 << PAGE_BITS;
  private static final int MIN_SLOTS = 64;

  /** What a removed series leaves in its slot: probes go past it, inserts may reuse it. */
  private static final Object TOMBSTONE = new Object();

  private volatile AtomicReferenceArray<Object> slots = new AtomicReferenceArray<>(MIN_SLOTS);
  private volatile int size;
  private int tombstones; // guarded by this
  private volatile AtomicReferenceArray<MemSeries>[] pages = newPages(0);
  private int nextId = 1; // guarded by this; 0 means "no reference" at the seam

  // Mixed into every slot, and different for every table. A replay creates series in the order a
  // checkpoint lists them, the slot order of the table that wrote it; under the same hash the
  // series created so far would all fall into the start of this table, one run of occupied slots
  // that every creation probes through (quadratic: most of a 200,000-series replay's time).
  private final long seed = ThreadLocalRandom.current().nextLong();

  /** The series with these labels, or null. Any thread, no lock. */
  MemSeries get(Labels labels) {
    AtomicReferenceArray<Object> t = slots;
    int mask = t.length() - 1;
    for (int i = slot(labels.hash64(), t.length()); ; i = (i + 1) & mask) {
      Object o = t.getAcquire(i);
      if (o == null) {
        return null;
      }
      if (o != TOMBSTONE && ((MemSeries) o).labels.equals(labels)) {
        return (MemSeries) o;
      }
    }
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
   * The series with these labels, created by {@code factory} with a fresh id if absent. The table
   * holds the series' own (interned) labels, so the caller's instance is not retained. The factory
   * runs at most once per absent label set, under this table's monitor, so no other thread sees the
   * series before the factory indexed and logged it.
   */
  MemSeries getOrCreate(Labels labels, StringInterner interner, SeriesFactory factory) {
    MemSeries s = get(labels);
    if (s != null) {
      return s;
    }
    Labels interned = interner.intern(labels);
    synchronized (this) {
      s = get(labels);
      if (s == null) {
        MemSeries fresh = factory.create(allocateId(0), interned);
        insert(fresh);
        return fresh;
      }
    }
    interner.release(interned); // another thread created it first
    return s;
  }

  /** For replay: creates the series with the given id; the caller checked the labels are absent. */
  MemSeries createWithId(int id, Labels labels, StringInterner interner, SeriesFactory factory) {
    Labels interned = interner.intern(labels);
    MemSeries prev;
    synchronized (this) {
      allocateId(id);
      prev = get(labels);
      if (prev == null) {
        MemSeries s = factory.create(id, interned);
        insert(s);
        return s;
      }
    }
    interner.release(interned);
    return prev;
  }

  /** Removes a series from both tables (a no-op if another series took its labels since). */
  synchronized void remove(MemSeries s) {
    AtomicReferenceArray<Object> t = slots;
    int mask = t.length() - 1;
    for (int i = slot(s.labels.hash64(), t.length()); ; i = (i + 1) & mask) {
      Object o = t.get(i);
      if (o == null) {
        break;
      }
      if (o == s) {
        t.setRelease(i, TOMBSTONE);
        size--;
        tombstones++;
        break;
      }
    }
    AtomicReferenceArray<MemSeries> page = pages[s.id >>> PAGE_BITS];
    page.compareAndSet(s.id & (PAGE_SIZE - 1), s, null);
  }

  int size() {
    return size;
  }

  /** Calls {@code c} with every series in the table as it is when the call starts. No lock. */
  void forEach(Consumer<MemSeries> c) {
    AtomicReferenceArray<Object> t = slots;
    for (int i = 0; i < t.length(); i++) {
      Object o = t.getAcquire(i);
      if (o != null && o != TOMBSTONE) {
        c.accept((MemSeries) o);
      }
    }
  }

  /** Slots in the by-labels table (for tests). */
  int capacity() {
    return slots.length();
  }

  /**
   * The longest run of occupied slots (series or tombstones), which bounds a lookup's probes (for
   * tests).
   */
  int longestRun() {
    AtomicReferenceArray<Object> t = slots;
    int longest = 0;
    int run = 0;
    // Twice around, so a run that wraps past the end is counted whole.
    for (int i = 0; i < 2 * t.length() && run < t.length(); i++) {
      run = t.get(i & (t.length() - 1)) == null ? 0 : run + 1;
      longest = Math.max(longest, run);
    }
    return longest;
  }

  /** Makes a series from its id and interned labels (and indexes and logs it). */
  interface SeriesFactory {
    MemSeries create(int id, Labels interned);
  }

  /** Whether {@code used} slots (live or tombstones) are more than three quarters of {@code n}. */
  static boolean overLoaded(int used, int n) {
    return (long) used * 4 > (long) n * 3;
  }

  /** Slots for a rebuild holding {@code live} series: at most half full afterwards. */
  static int capacityFor(int live) {
    int n = MIN_SLOTS;
    while (n < 2L * live) {
      n <<= 1;
    }
    return n;
  }

  /** Caller holds the monitor and checked the labels are absent. */
  private void insert(MemSeries s) {
    AtomicReferenceArray<Object> t = slots;
    if (overLoaded(size + tombstones + 1, t.length())) {
      t = rebuild(capacityFor(size + 1));
    }
    int mask = t.length() - 1;
    int i = slot(s.labels.hash64(), t.length());
    while (t.get(i) != null && t.get(i) != TOMBSTONE) {
      i = (i + 1) & mask;
    }
    if (t.get(i) == TOMBSTONE) {
      tombstones--;
    }
    t.setRelease(i, s);
    size++;
    putById(s);
  }

  /** Caller holds the monitor. Copies the live series into a new table and publishes it. */
  private AtomicReferenceArray<Object> rebuild(int capacity) {
    AtomicReferenceArray<Object> old = slots;
    AtomicReferenceArray<Object> t = new AtomicReferenceArray<>(capacity);
    int mask = capacity - 1;
    for (int j = 0; j < old.length(); j++) {
      Object o = old.get(j);
      if (o != null && o != TOMBSTONE) {
        int i = slot(((MemSeries) o).labels.hash64(), capacity);
        while (t.get(i) != null) {
          i = (i + 1) & mask;
        }
        t.set(i, o);
      }
    }
    tombstones = 0;
    slots = t;
    return t;
  }

  private int slot(long hash, int capacity) {
    // Fibonacci hashing: the high bits of the product mix every bit of the hash.
    long h = (hash ^ seed) * 0x9E3779B97F4A7C15L;
    return (int) (h >>> (64 - Integer.numberOfTrailingZeros(capacity)));
  }

  /** Keeps fresh ids above {@code id} (references a log names without a series record). */
  synchronized void reserveIdsUpTo(int id) {
    nextId = Math.max(nextId, id + 1);
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

  private void putById(MemSeries s) {
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
