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
 * change (an insertion out of id order, a removal) copies the list first, so a reader never sees a
 * list change under it and need not hold the lock while reading.
 */
public final class MemPostings implements PostingsReader {
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final Map<String, Map<String, IdList>> byName = new HashMap<>();
  private final IdList all = new IdList();

  /** Adds a series; ids may arrive slightly out of order from concurrent creators. */
  public void add(int id, Labels labels) {
    lock.writeLock().lock();
    try {
      all.add(id);
      for (int i = 0; i < labels.size(); i++) {
        byName
            .computeIfAbsent(labels.name(i), k -> new HashMap<>())
            .computeIfAbsent(labels.value(i), k -> new IdList())
            .add(id);
      }
    } finally {
      lock.writeLock().unlock();
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
      return all.size;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** A sorted list of ids; see the class comment for the copy rules that make snapshots safe. */
  private static final class IdList {
    int[] ids = new int[2];
    int size;

    void add(int id) {
      if (size == 0 || ids[size - 1] < id) {
        if (size == ids.length) {
          ids = Arrays.copyOf(ids, size + (size >>> 1) + 2);
        }
        ids[size++] = id; // past every reader's captured length
        return;
      }
      int pos = Arrays.binarySearch(ids, 0, size, id);
      if (pos >= 0) {
        return;
      }
      int at = -pos - 1;
      int[] copy = new int[Math.max(ids.length, size + 1)];
      System.arraycopy(ids, 0, copy, 0, at);
      copy[at] = id;
      System.arraycopy(ids, at, copy, at + 1, size - at);
      ids = copy;
      size++;
    }

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
