package dev.infermon.tsdb.head;

import java.util.Arrays;

/**
 * A transaction's pending samples in parallel arrays, with an open-addressing map from series id to
 * the index of that series' latest pending sample (to reject out-of-order samples within the
 * transaction and to list the distinct series touched). Not thread-safe: owned by one appender at a
 * time, then handed on through {@link SampleBufferPool}.
 */
final class SeriesSampleBuffer {
  MemSeries[] series = new MemSeries[64];
  long[] refs = new long[64];
  long[] timestamps = new long[64];
  double[] values = new double[64];
  int size;

  // Distinct series of the transaction and, per id, the index of its latest sample (-1: none).
  MemSeries[] touched = new MemSeries[64];
  int touchedCount;
  private int[] keys = new int[128]; // series id, 0 = empty
  private int[] latest = new int[128];

  void add(MemSeries s, long t, double v) {
    if (size == series.length) {
      int n = size * 2;
      series = Arrays.copyOf(series, n);
      refs = Arrays.copyOf(refs, n);
      timestamps = Arrays.copyOf(timestamps, n);
      values = Arrays.copyOf(values, n);
    }
    series[size] = s;
    refs[size] = s.id;
    timestamps[size] = t;
    values[size] = v;
    put(s.id, size);
    size++;
  }

  /** Marks a series as touched by this transaction (it holds a pending mark). */
  void touch(MemSeries s) {
    if (touchedCount == touched.length) {
      touched = Arrays.copyOf(touched, touchedCount * 2);
    }
    touched[touchedCount++] = s;
    put(s.id, -1);
  }

  /** Index of the series' latest pending sample; -1 when touched without samples; -2 untouched. */
  int latest(int id) {
    int mask = keys.length - 1;
    for (int i = mix(id) & mask; ; i = (i + 1) & mask) {
      if (keys[i] == id) {
        return latest[i];
      }
      if (keys[i] == 0) {
        return -2;
      }
    }
  }

  private void put(int id, int index) {
    if ((touchedCount + 1) * 2 > keys.length) {
      rehash(keys.length * 2);
    }
    int mask = keys.length - 1;
    for (int i = mix(id) & mask; ; i = (i + 1) & mask) {
      if (keys[i] == id || keys[i] == 0) {
        keys[i] = id;
        latest[i] = index;
        return;
      }
    }
  }

  private void rehash(int n) {
    int[] oldKeys = keys;
    int[] oldLatest = latest;
    keys = new int[n];
    latest = new int[n];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != 0) {
        int mask = n - 1;
        int j = mix(oldKeys[i]) & mask;
        while (keys[j] != 0) {
          j = (j + 1) & mask;
        }
        keys[j] = oldKeys[i];
        latest[j] = oldLatest[i];
      }
    }
  }

  private static int mix(int id) {
    return id * 0x9E3779B9;
  }

  /** Empties the buffer, dropping references to series so they can be collected. */
  void clear() {
    Arrays.fill(series, 0, size, null);
    Arrays.fill(touched, 0, touchedCount, null);
    size = 0;
    touchedCount = 0;
    Arrays.fill(keys, 0);
  }

  /** The largest of its arrays' lengths: what keeping this buffer costs. */
  int capacity() {
    return Math.max(Math.max(series.length, touched.length), keys.length);
  }
}
