package dev.infermon.promql.engine;

import dev.infermon.promql.QueryException;
import dev.infermon.promql.parser.AggregateOp;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code topk} and {@code bottomk}, chosen per step (so a range result can hold more than k series
 * per group). The per-group heaps mirror Go's {@code container/heap} over Prometheus's comparators,
 * so ties and NaNs come out in the order Prometheus gives.
 */
final class TopK {
  private TopK() {}

  static List<EvalSeries> eval(
      Evaluator ev,
      AggregateOp op,
      double[] param,
      List<EvalSeries> in,
      int[] groupOf,
      int nGroups) {
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    boolean nan = false;
    for (double p : param) {
      if (Double.isNaN(p)) {
        nan = true;
      } else {
        max = Math.max(max, p);
        min = Math.min(min, p);
      }
    }
    List<EvalSeries> result = new ArrayList<>();
    if (max < 1 && !nan) {
      return result;
    }
    if (nan) {
      throw new QueryException("Parameter value is NaN");
    }
    if (min <= -9.223372036854775808e18) {
      throw new QueryException("Scalar value " + GoFormat.g(min) + " underflows int64");
    }
    if (max >= 9223372036854774784.0) {
      throw new QueryException("Scalar value " + GoFormat.g(max) + " overflows int64");
    }
    boolean top = op == AggregateOp.TOPK;
    int[][] heaps = new int[nGroups][];
    int[] sizes = new int[nGroups];
    int[] cursor = new int[in.size()];
    double[] cur = new double[in.size()];
    EvalSeries[] bySeries = new EvalSeries[in.size()];
    int step = -1;
    for (long ts = ev.start; ts <= ev.end; ts += ev.interval) {
      step++;
      ev.ctx.checkDeadline();
      long k = Math.min((long) param[step], in.size());
      java.util.Arrays.fill(sizes, 0);
      for (int si = 0; si < in.size(); si++) {
        EvalSeries s = in.get(si);
        int c = cursor[si];
        if (c >= s.n || s.t[c] != ts) {
          continue;
        }
        cursor[si] = c + 1;
        if (k < 1) {
          continue;
        }
        cur[si] = s.v[c];
        int g = groupOf[si];
        if (heaps[g] == null) {
          heaps[g] = new int[(int) Math.min(k, 16)];
        }
        int[] h = heaps[g];
        if (sizes[g] < k) {
          if (sizes[g] == h.length) {
            h = heaps[g] = java.util.Arrays.copyOf(h, h.length * 2);
          }
          h[sizes[g]] = si;
          sizes[g]++;
          up(h, sizes[g] - 1, cur, top);
        } else {
          double root = cur[h[0]];
          double f = cur[si];
          boolean replace =
              top
                  ? root < f || (Double.isNaN(root) && !Double.isNaN(f))
                  : root > f || (Double.isNaN(root) && !Double.isNaN(f));
          if (replace) {
            h[0] = si;
            if (k > 1) {
              fix(h, sizes[g], 0, cur, top);
            }
          }
        }
      }
      if (k < 1) {
        continue;
      }
      for (int g = 0; g < nGroups; g++) {
        int n = sizes[g];
        if (n == 0) {
          continue;
        }
        int[] h = heaps[g];
        reverseSort(h, n, cur, top);
        for (int i = 0; i < n; i++) {
          int si = h[i];
          EvalSeries src = in.get(si);
          if (ev.isInstant()) {
            EvalSeries s = new EvalSeries(src.labels, 1);
            s.add(ts, cur[si]);
            s.dropName = src.dropName;
            result.add(s);
          } else {
            EvalSeries s = bySeries[si];
            if (s == null) {
              s = bySeries[si] = new EvalSeries(src.labels, Math.min(ev.numSteps, 64));
              s.dropName = src.dropName;
              result.add(s);
            }
            s.add(ts, cur[si]);
          }
        }
      }
    }
    return result;
  }

  /** Go's heap order: NaN is "less" than everything; topk keeps the smallest on top. */
  private static boolean less(double[] cur, int a, int b, boolean top) {
    double vi = cur[a];
    double vj = cur[b];
    if (Double.isNaN(vi)) {
      return true;
    }
    return top ? vi < vj : vi > vj;
  }

  private static void up(int[] h, int j, double[] cur, boolean top) {
    while (true) {
      int i = (j - 1) / 2;
      if (i == j || !less(cur, h[j], h[i], top)) {
        break;
      }
      swap(h, i, j);
      j = i;
    }
  }

  private static boolean down(int[] h, int i0, int n, double[] cur, boolean top) {
    int i = i0;
    while (true) {
      int j1 = 2 * i + 1;
      if (j1 >= n || j1 < 0) {
        break;
      }
      int j = j1;
      int j2 = j1 + 1;
      if (j2 < n && less(cur, h[j2], h[j1], top)) {
        j = j2;
      }
      if (!less(cur, h[j], h[i], top)) {
        break;
      }
      swap(h, i, j);
      i = j;
    }
    return i > i0;
  }

  private static void fix(int[] h, int n, int i, double[] cur, boolean top) {
    if (!down(h, i, n, cur, top)) {
      up(h, i, cur, top);
    }
  }

  /**
   * Go's {@code sort.Sort(sort.Reverse(heap))}: insertion sort for the small sizes topk usually has
   * (Go's pdqsort does the same below 12 elements), a heap sort otherwise.
   */
  private static void reverseSort(int[] h, int n, double[] cur, boolean top) {
    if (n <= 12) {
      for (int i = 1; i < n; i++) {
        for (int j = i; j > 0 && less(cur, h[j - 1], h[j], top); j--) {
          swap(h, j, j - 1);
        }
      }
      return;
    }
    Integer[] idx = new Integer[n];
    for (int i = 0; i < n; i++) {
      idx[i] = h[i];
    }
    java.util.Arrays.sort(idx, (a, b) -> less(cur, b, a, top) ? -1 : less(cur, a, b, top) ? 1 : 0);
    for (int i = 0; i < n; i++) {
      h[i] = idx[i];
    }
  }

  private static void swap(int[] h, int i, int j) {
    int t = h[i];
    h[i] = h[j];
    h[j] = t;
  }
}
