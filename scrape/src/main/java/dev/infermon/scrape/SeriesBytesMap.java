package dev.infermon.scrape;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The scrape cache's table: series bytes (with the parser's 64-bit hash of them) to a value, by
 * open addressing over parallel arrays. A lookup compares the stored 64-bit hash first and the
 * bytes only on a hash match, straight against the parser's buffer, so a hit allocates nothing and
 * copies nothing; keys own a copy of their bytes, made once on insert.
 *
 * <p>Not thread-safe (one scrape loop at a time).
 */
final class SeriesBytesMap<V> {
  private static final int MIN_CAPACITY = 16;

  private long[] hashes;
  private byte[][] keys; // null marks a free slot
  private Object[] values;
  private int shift; // 64 - log2(capacity)
  private int size;

  SeriesBytesMap() {
    allocate(MIN_CAPACITY);
  }

  int size() {
    return size;
  }

  /** The value stored for {@code b[off, off + len)} with hash {@code hash}, or null. */
  V get(byte[] b, int off, int len, long hash) {
    int i = find(b, off, len, hash);
    return i < 0 ? null : value(i);
  }

  /** Stores {@code v} for the bytes, replacing any value (the bytes are copied on first insert). */
  void put(byte[] b, int off, int len, long hash, V v) {
    int i = find(b, off, len, hash);
    if (i >= 0) {
      values[i] = v;
      return;
    }
    if ((size + 1) * 2 > keys.length) {
      rehash(keys.length * 2);
    }
    insert(hash, Arrays.copyOfRange(b, off, off + len), v);
    size++;
  }

  /** Calls {@code f} with every value, in table order. */
  void forEachValue(Consumer<? super V> f) {
    Object[] vs = values;
    for (int i = 0; i < vs.length; i++) {
      if (vs[i] != null) {
        f.accept(valueOf(vs[i]));
      }
    }
  }

  /** Removes every entry whose value matches; rebuilds the table only when something goes. */
  void removeIf(Predicate<? super V> doomed) {
    int keep = 0;
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != null && !doomed.test(value(i))) {
        keep++;
      }
    }
    if (keep == size) {
      return;
    }
    long[] oldHashes = hashes;
    byte[][] oldKeys = keys;
    Object[] oldValues = values;
    allocate(capacityFor(keep));
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null && !doomed.test(valueOf(oldValues[i]))) {
        insert(oldHashes[i], oldKeys[i], valueOf(oldValues[i]));
      }
    }
    size = keep;
  }

  private int find(byte[] b, int off, int len, long hash) {
    int mask = keys.length - 1;
    for (int i = slot(hash); ; i = (i + 1) & mask) {
      byte[] k = keys[i];
      if (k == null) {
        return -1;
      }
      if (hashes[i] == hash && Arrays.equals(k, 0, k.length, b, off, off + len)) {
        return i;
      }
    }
  }

  private void insert(long hash, byte[] key, Object v) {
    int mask = keys.length - 1;
    int i = slot(hash);
    while (keys[i] != null) {
      i = (i + 1) & mask;
    }
    hashes[i] = hash;
    keys[i] = key;
    values[i] = v;
  }

  private int slot(long hash) {
    // Fibonacci hashing: the high bits of the product mix every bit of the hash.
    return (int) ((hash * 0x9E3779B97F4A7C15L) >>> shift);
  }

  private void rehash(int capacity) {
    long[] oldHashes = hashes;
    byte[][] oldKeys = keys;
    Object[] oldValues = values;
    allocate(capacity);
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null) {
        insert(oldHashes[i], oldKeys[i], oldValues[i]);
      }
    }
  }

  private void allocate(int capacity) {
    hashes = new long[capacity];
    keys = new byte[capacity][];
    values = new Object[capacity];
    shift = 64 - Integer.numberOfTrailingZeros(capacity);
  }

  private static int capacityFor(int n) {
    int c = MIN_CAPACITY;
    while (c < n * 2) {
      c <<= 1;
    }
    return c;
  }

  private V value(int i) {
    return valueOf(values[i]);
  }

  @SuppressWarnings("unchecked")
  private V valueOf(Object o) {
    return (V) o;
  }
}
