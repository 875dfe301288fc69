package dev.infermon.textparse;

import java.util.Arrays;

/** A set of longs (group hashes) with open addressing; reused by clearing. */
final class LongSet {
  private static final long EMPTY = 0;
  private long[] slots = new long[32];
  private int size;
  private boolean hasZero;

  void clear() {
    if (size > 0) {
      Arrays.fill(slots, EMPTY);
      size = 0;
    }
    hasZero = false;
  }

  boolean contains(long v) {
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

  /** Adds v; returns false when it was present. */
  boolean add(long v) {
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

  private static int mix(long v) {
    v ^= v >>> 33;
    v *= 0xFF51AFD7ED558CCDL;
    return (int) (v ^ (v >>> 33));
  }
}
