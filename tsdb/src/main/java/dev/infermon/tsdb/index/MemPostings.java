package dev.infermon.tsdb.index;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The head's inverted index: label name → value → sorted series ids, plus the list of all ids.
 *
 * <p>Threading: thread-safe. One read-write lock guards the maps; only series creation and removal
 * take it for writing, so appends to existing series never touch it. Postings handed out are
 * snapshots: a list only ever grows in place past the length a reader captured, and every other
 * change (an insertion out of id order, a removal, the sort at the end of a bulk load) copies the
 * list first, so a reader never sees a list change under it and need not hold the lock while
 * reading.
 *
 * <p>Bulk load: an insertion out of id order copies the list, so adding series in an order far from
 * their ids' (a log checkpoint lists them in the head's table order) is quadratic in a list's
 * length. Between {@link #startUnordered()} and {@link #ensureOrder()} ids are appended as they
 * come and each list is sorted once at the end, as Prometheus's unordered {@code MemPostings} and
 * its {@code EnsureOrder}. Lists are not sorted in between, so postings and the size cannot be read
 * then; label names and values can.
 */
public final class MemPostings implements PostingsReader {
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final Map<String, Map<String, IdList>> byName = new HashMap<>();
  private final IdList all = new IdList();
  private boolean ordered = true; // guarded by lock
  private long copyingInserts; // guarded by lock

  /**
   * Adds a series; ids may arrive out of order (from concurrent creators, or a replay). Adding an
   * id a list already holds changes nothing.
   */
  public void add(int id, Labels labels) {
    lock.writeLock().lock();
    try {
      add(all, id);
      for (int i = 0; i < labels.size(); i++) {
        add(
            byName
                .computeIfAbsent(labels.name(i), k -> new HashMap<>())
                .computeIfAbsent(labels.value(i), k -> new IdList()),
            id);
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Caller holds the write lock. */
  private void add(IdList list, int id) {
    if (!ordered) {
      list.append(id);
    } else if (list.insert(id)) {
      copyingInserts++;
    }
  }

  /**
   * Starts a bulk load: until {@link #ensureOrder()}, {@link #add} appends ids without ordering the
   * lists, and {@link #postings}, {@link #allPostings} and {@link #size} throw {@link
   * IllegalStateException}. Snapshots handed out before stay valid.
   */
  public void startUnordered() {
    lock.writeLock().lock();
    try {
      ordered = false;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * Ends a bulk load: sorts each list that is out of order (into a new array) and drops repeated
   * ids; from now on adds keep the lists ordered again. Nothing to do when no bulk load is under
   * way.
   */
  public void ensureOrder() {
    lock.writeLock().lock();
    try {
      if (ordered) {
        return;
      }
      all.ensureSorted();
      for (Map<String, IdList> values : byName.values()) {
        for (IdList list : values.values()) {
          list.ensureSorted();
        }
      }
      ordered = true;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * Insertions out of id order made outside a bulk load, each of which copied its list (for tests
   * and profiles: a replay should make none).
   */
  public long copyingInserts() {
    lock.readLock().lock();
    try {
      return copyingInserts;
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Removes series, given with the labels they were added with. Label pairs left without series
   * disappear, so their names and values are no longer listed.
   */
  public void remove(Map<Integer, Labels> series) {
    if (series.isEmpty()) {
      return;
    }
    // Group ids by label pair so each list is rebuilt once.
    Map<String, Map<String, List<Integer>>> drop = new HashMap<>();
    for (Map.Entry<Integer, Labels> e : series.entrySet()) {
      Labels l = e.getValue();
      for (int i = 0; i < l.size(); i++) {
        drop.computeIfAbsent(l.name(i), k -> new HashMap<>())
            .computeIfAbsent(l.value(i), k -> new ArrayList<>())
            .add(e.getKey());
      }
    }
    lock.writeLock().lock();
    try {
      all.removeAll(series.keySet().stream().mapToInt(Integer::intValue).toArray());
      drop.forEach(
          (name, values) -> {
            Map<String, IdList> vs = byName.get(name);
            if (vs == null) {
              return;
            }
            values.forEach(
                (value, ids) -> {
                  IdList list = vs.get(value);
                  if (list != null) {
                    list.removeAll(ids.stream().mapToInt(Integer::intValue).toArray());
                    if (list.size == 0) {
                      vs.remove(value);
                    }
                  }
                });
            if (vs.isEmpty()) {
              byName.remove(name);
            }
          });
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public Postings postings(String name, String value) {
    lock.readLock().lock();
    try {
      checkOrdered();
      Map<String, IdList> vs = byName.get(name);
      IdList list = vs == null ? null : vs.get(value);
      return list == null ? Postings.empty() : list.snapshot();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public Postings allPostings() {
    lock.readLock().lock();
    try {
      checkOrdered();
      return all.snapshot();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<String> labelValues(String name) {
    List<String> out;
    lock.readLock().lock();
    try {
      Map<String, IdList> vs = byName.get(name);
      if (vs == null) {
        return List.of();
      }
      out = new ArrayList<>(vs.keySet());
    } finally {
      lock.readLock().unlock();
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public List<String> labelNames() {
    List<String> out;
    lock.readLock().lock();
    try {
      out = new ArrayList<>(byName.keySet());
    } finally {
      lock.readLock().unlock();
    }
    Collections.sort(out);
    return out;
  }

  /** Number of series in the index. */
  public int size() {
    lock.readLock().lock();
    try {
      checkOrdered();
      return all.size;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Caller holds the lock. */
  private void checkOrdered() {
    if (!ordered) {
      throw new IllegalStateException(
          "the postings are being bulk loaded (unordered); read them after ensureOrder()");
    }
  }

  /**
   * A list of ids, sorted except during a bulk load; see the class comment for the copy rules that
   * make snapshots safe.
   */
  private static final class IdList {
    int[] ids = new int[2];
    int size;

    /** Inserts in order; true when the insertion copied the list (an id out of order). */
    boolean insert(int id) {
      if (size == 0 || ids[size - 1] < id) {
        append(id);
        return false;
      }
      int pos = Arrays.binarySearch(ids, 0, size, id);
      if (pos >= 0) {
        return false;
      }
      int at = -pos - 1;
      int[] copy = new int[Math.max(ids.length, size + 1)];
      System.arraycopy(ids, 0, copy, 0, at);
      copy[at] = id;
      System.arraycopy(ids, at, copy, at + 1, size - at);
      ids = copy;
      size++;
      return true;
    }

    /** Adds at the end, whatever the order. */
    void append(int id) {
      if (size == ids.length) {
        ids = Arrays.copyOf(ids, size + (size >>> 1) + 2);
      }
      ids[size++] = id; // past every reader's captured length
    }

    /** After a bulk load: sorts and deduplicates into a new array, unless already in order. */
    void ensureSorted() {
      for (int i = 1; i < size; i++) {
        if (ids[i - 1] >= ids[i]) {
          sortCopy();
          return;
        }
      }
    }

    private void sortCopy() {
      // A new array: a snapshot taken before the bulk load may share the old one.
      int[] copy = Arrays.copyOf(ids, size);
      Arrays.sort(copy);
      int n = 0;
      for (int i = 0; i < copy.length; i++) {
        if (n == 0 || copy[n - 1] != copy[i]) {
          copy[n++] = copy[i];
        }
      }
      ids = copy;
      size = n;
    }

    /** Removes the ids in {@code drop}; keeps the order of the rest (sorted or not). */
    void removeAll(int[] drop) {
      Arrays.sort(drop);
      int[] copy = new int[size];
      int n = 0;
      for (int i = 0; i < size; i++) {
        if (Arrays.binarySearch(drop, ids[i]) < 0) {
          copy[n++] = ids[i];
        }
      }
      ids = copy;
      size = n;
    }

    Postings snapshot() {
      return Postings.of(ids, size);
    }
  }
}
