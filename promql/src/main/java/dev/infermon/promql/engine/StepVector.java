package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import java.util.Arrays;

/**
 * The samples of one step, in parallel primitive arrays reused from step to step (no per-sample
 * objects). {@code src} is the index of the input series a sample came from, so per-series work
 * (signatures, groups) is done once per query rather than once per step. Not thread-safe.
 */
final class StepVector {
  Labels[] labels;
  double[] v;
  boolean[] drop;
  int[] src;

  /** Sample timestamps, used only by {@code timestamp()}. */
  long[] t;

  int n;

  StepVector(int capacity) {
    int c = Math.max(4, capacity);
    labels = new Labels[c];
    v = new double[c];
    drop = new boolean[c];
    src = new int[c];
    t = new long[c];
  }

  void clear() {
    n = 0;
  }

  void add(Labels l, double value, boolean dropName, int source) {
    if (n == v.length) {
      int c = n * 2;
      labels = Arrays.copyOf(labels, c);
      v = Arrays.copyOf(v, c);
      drop = Arrays.copyOf(drop, c);
      src = Arrays.copyOf(src, c);
      t = Arrays.copyOf(t, c);
    }
    labels[n] = l;
    v[n] = value;
    drop[n] = dropName;
    src[n] = source;
    n++;
  }

  void add(Labels l, double value, boolean dropName) {
    add(l, value, dropName, -1);
  }
}
