package dev.infermon.llm.diagnosis;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.TimeSeries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The points of one range query laid on the window's step grid: per series key, a value per step
 * (NaN where the series has no point). Statistics ignore NaN. Not thread-safe; lives for one
 * diagnosis.
 */
final class Window {
  final long start;
  final long end;
  final long step;
  final int size;

  Window(long start, long end, long step) {
    this.start = start;
    this.end = end;
    this.step = step;
    this.size = (int) ((end - start) / step) + 1;
  }

  long time(int i) {
    return start + i * step;
  }

  /** A matrix's series by the key {@code keyOf} gives (series with the same key are summed). */
  Map<String, double[]> grid(Matrix m, java.util.function.Function<Labels, String> keyOf) {
    Map<String, double[]> out = new LinkedHashMap<>();
    for (TimeSeries s : m.series()) {
      String key = keyOf.apply(s.labels());
      if (key == null) {
        continue;
      }
      double[] v =
          out.computeIfAbsent(
              key,
              k -> {
                double[] a = new double[size];
                Arrays.fill(a, Double.NaN);
                return a;
              });
      for (int i = 0; i < s.size(); i++) {
        int idx = (int) Math.round((double) (s.timestampAt(i) - start) / step);
        if (idx >= 0 && idx < size) {
          double x = s.valueAt(i);
          v[idx] = Double.isNaN(v[idx]) ? x : v[idx] + x;
        }
      }
    }
    return out;
  }

  static double mean(double[] v) {
    return mean(v, 0, v.length);
  }

  static double mean(double[] v, int from, int to) {
    double sum = 0;
    int n = 0;
    for (int i = Math.max(0, from); i < Math.min(to, v.length); i++) {
      if (!Double.isNaN(v[i])) {
        sum += v[i];
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  static double max(double[] v) {
    double m = Double.NaN;
    for (double x : v) {
      if (!Double.isNaN(x) && (Double.isNaN(m) || x > m)) {
        m = x;
      }
    }
    return m;
  }

  /** The index of the maximum, or -1. */
  static int argMax(double[] v) {
    int best = -1;
    for (int i = 0; i < v.length; i++) {
      if (!Double.isNaN(v[i]) && (best < 0 || v[i] > v[best])) {
        best = i;
      }
    }
    return best;
  }

  /** The index of the minimum, or -1. */
  static int argMin(double[] v) {
    int best = -1;
    for (int i = 0; i < v.length; i++) {
      if (!Double.isNaN(v[i]) && (best < 0 || v[i] < v[best])) {
        best = i;
      }
    }
    return best;
  }

  /** The share of defined points that pass {@code test}. */
  static double share(double[] v, java.util.function.DoublePredicate test) {
    int n = 0;
    int yes = 0;
    for (double x : v) {
      if (!Double.isNaN(x)) {
        n++;
        if (test.test(x)) {
          yes++;
        }
      }
    }
    return n == 0 ? 0 : (double) yes / n;
  }

  static int defined(double[] v) {
    int n = 0;
    for (double x : v) {
      if (!Double.isNaN(x)) {
        n++;
      }
    }
    return n;
  }

  static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>();
    for (double x : xs) {
      if (!Double.isNaN(x)) {
        s.add(x);
      }
    }
    if (s.isEmpty()) {
      return Double.NaN;
    }
    s.sort(null);
    int k = s.size() / 2;
    return s.size() % 2 == 1 ? s.get(k) : (s.get(k - 1) + s.get(k)) / 2;
  }

  static double median(double[] v) {
    List<Double> xs = new ArrayList<>();
    for (double x : v) {
      xs.add(x);
    }
    return median(xs);
  }
}
