package dev.infermon.model.util;

import java.util.Arrays;

/**
 * A set of longs with open addressing and linear probing, no boxing, kept at most half full; reused
 * by {@link #clear()}. The parser's OpenMetrics rules track a page's group hashes with one, the
 * tsdb's write-ahead log replay the series references it has seen. Not thread-safe.
 */
public final class LongSet {
  private static final long EMPTY = 0; // a free slot; 0 itself is kept aside in hasZero
  private long[] slots;
  private int size;
  private boolean hasZero;

  /** An empty set with room for a few dozen values before it grows. */
  public LongSet() {
    this(16);
  }

  /**
   * An empty set with room for {@code expected} values before it grows.
   *
   * @throws IllegalArgumentException when {@code expected} is negative or above 2^29
   */
  public LongSet(int expected) {
    if (expected < 0 || expected > (1 << 29)) {
      throw new IllegalArgumentException("expected size must be in [0, 2^29]: " + expected);
    }
    slots = new long[Math.max(8, Integer.highestOneBit(Math.max(1, expected) * 2 - 1) << 1)];
  }

  /** How many values the set holds. */
  public int size() {
    return size + (hasZero ? 1 : 0);
  }

  /** Removes every value, keeping the table's size. */
  public void clear() {
    if (size > 0) {
      Arrays.fill(slots, EMPTY);
      size = 0;
    }
    hasZero = false;
  }

  public boolean contains(long v) {
    if (v == EMPTY) {
      return hasZero;
    }
    int mask = slots.length - 1;
    for (int i = mix(v) & mask; ; i = (i + 1) & mask) {
      long s = slots[i];
      if (s == v) {
        return true;
      }
      if (s == EMPTY) {
        return false;
      }
    }
  }

  /** Adds {@code v}; returns false when it was present. */
  public boolean add(long v) {
    if (v == EMPTY) {
      boolean had = hasZero;
      hasZero = true;
      return !had;
    }
    if ((size + 1) * 2 > slots.length) {
      long[] old = slots;
      slots = new long[old.length * 2];
      size = 0;
      for (long s : old) {
        if (s != EMPTY) {
          insert(s);
        }
      }
    }
    return insert(v);
  }

  private boolean insert(long v) {
    int mask = slots.length - 1;
    for (int i = mix(v) & mask; ; i = (i + 1) & mask) {
      long s = slots[i];
      if (s == v) {
        return false;
      }
      if (s == EMPTY) {
        slots[i] = v;
        size++;
        return true;
      }
    }
  }

  /** The high and low halves mixed (MurmurHash3's finalizer): sequential references spread. */
  private static int mix(long v) {
    v ^= v >>> 33;
    v *= 0xFF51AFD7ED558CCDL;
    return (int) (v ^ (v >>> 33));
  }
}
