package dev.infermon.tsdb;

import java.util.Arrays;

/** A set of longs with open addressing; no boxing. Not thread-safe. */
final class LongSet {
  private static final long EMPTY = Long.MIN_VALUE;
  private long[] table = new long[1024];
  private int size;
  private boolean hasEmptyKey;

  LongSet() {
    Arrays.fill(table, EMPTY);
  }

  void add(long v) {
    if (v == EMPTY) {
      hasEmptyKey = true;
      return;
    }
    if ((size + 1) * 2 > table.length) {
      grow();
    }
    int mask = table.length - 1;
    int i = mix(v) & mask;
    while (table[i] != EMPTY) {
      if (table[i] == v) {
        return;
      }
      i = (i + 1) & mask;
    }
    table[i] = v;
    size++;
  }

  boolean contains(long v) {
    if (v == EMPTY) {
      return hasEmptyKey;
    }
    int mask = table.length - 1;
    int i = mix(v) & mask;
    while (table[i] != EMPTY) {
      if (table[i] == v) {
        return true;
      }
      i = (i + 1) & mask;
    }
    return false;
  }

  private void grow() {
    long[] old = table;
    table = new long[old.length * 2];
    Arrays.fill(table, EMPTY);
    size = 0;
    for (long v : old) {
      if (v != EMPTY) {
        add(v);
      }
    }
  }

  private static int mix(long v) {
    long h = v * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}
