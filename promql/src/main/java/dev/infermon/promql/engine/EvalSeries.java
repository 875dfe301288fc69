package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import java.util.Arrays;

/**
 * A series while a query is evaluated: labels and points in time order, in growable primitive
 * arrays. Mutable and owned by one evaluation (one thread); never handed to callers.
 *
 * <p>{@code dropName} marks a series whose {@code __name__} must go at the end of evaluation
 * (delayed name removal); without that feature names are dropped at once and the flag only rides
 * along.
 */
final class EvalSeries {
  Labels labels;
  long[] t;
  double[] v;
  int n;
  boolean dropName;

  EvalSeries(Labels labels, int capacity) {
    this.labels = labels;
    int c = Math.max(1, capacity);
    this.t = new long[c];
    this.v = new double[c];
  }

  EvalSeries(Labels labels, long[] t, double[] v, int n) {
    this.labels = labels;
    this.t = t;
    this.v = v;
    this.n = n;
  }

  void add(long ts, double value) {
    if (n == t.length) {
      grow();
    }
    t[n] = ts;
    v[n] = value;
    n++;
  }

  /** Doubles the capacity (at least 4). */
  void grow() {
    int c = Math.max(4, t.length * 2);
    t = Arrays.copyOf(t, c);
    v = Arrays.copyOf(v, c);
  }

  /** Index of the point at exactly {@code ts}, or -1 (binary search). */
  int indexOf(long ts) {
    int i = Arrays.binarySearch(t, 0, n, ts);
    return i >= 0 ? i : -1;
  }

  EvalSeries copy() {
    EvalSeries s = new EvalSeries(labels, Arrays.copyOf(t, n), Arrays.copyOf(v, n), n);
    s.dropName = dropName;
    return s;
  }
}
