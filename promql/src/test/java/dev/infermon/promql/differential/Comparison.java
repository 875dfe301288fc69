package dev.infermon.promql.differential;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeSet;

/**
 * Compares two {@link Outcome}s as Prometheus's test harness compares results: the same label sets,
 * the same timestamps, and values equal within a relative tolerance ({@code almost.Equal}: NaN
 * equals NaN, and a zero on either side needs the other within tolerance of the smallest normal
 * float). Both sides failing counts as agreement; the messages are not compared.
 */
final class Comparison {
  static final double EPSILON = 1e-6;

  private Comparison() {}

  /** Null when the outcomes agree, else what differs first (readable, one line). */
  static String difference(Outcome prometheus, Outcome infermon) {
    if (prometheus.failed() || infermon.failed()) {
      if (prometheus.failed() && infermon.failed()) {
        return null;
      }
      return prometheus.failed()
          ? "Prometheus failed ("
              + prometheus.error()
              + "), infermon returned "
              + infermon.series().size()
              + " series"
          : "infermon failed ("
              + infermon.error()
              + "), Prometheus returned "
              + prometheus.series().size()
              + " series";
    }
    Map<Labels, NavigableMap<Long, Double>> p = prometheus.series();
    Map<Labels, NavigableMap<Long, Double>> i = infermon.series();
    if (!p.keySet().equals(i.keySet())) {
      TreeSet<Labels> onlyP = new TreeSet<>(p.keySet());
      onlyP.removeAll(i.keySet());
      TreeSet<Labels> onlyI = new TreeSet<>(i.keySet());
      onlyI.removeAll(p.keySet());
      return "series differ ("
          + p.size()
          + " vs "
          + i.size()
          + "): only Prometheus "
          + first(onlyP)
          + "; only infermon "
          + first(onlyI);
    }
    for (Map.Entry<Labels, NavigableMap<Long, Double>> e : p.entrySet()) {
      NavigableMap<Long, Double> pp = e.getValue();
      NavigableMap<Long, Double> ip = i.get(e.getKey());
      if (!pp.keySet().equals(ip.keySet())) {
        TreeSet<Long> onlyP = new TreeSet<>(pp.keySet());
        onlyP.removeAll(ip.keySet());
        TreeSet<Long> onlyI = new TreeSet<>(ip.keySet());
        onlyI.removeAll(pp.keySet());
        return e.getKey()
            + ": steps differ ("
            + pp.size()
            + " vs "
            + ip.size()
            + "): only Prometheus "
            + first(onlyP)
            + "; only infermon "
            + first(onlyI);
      }
      for (Map.Entry<Long, Double> point : pp.entrySet()) {
        double a = point.getValue();
        double b = ip.get(point.getKey());
        if (!almostEqual(a, b, EPSILON)) {
          return e.getKey() + " @" + point.getKey() + ": Prometheus " + a + ", infermon " + b;
        }
      }
    }
    return null;
  }

  /** Prometheus's {@code util/almost.Equal}. */
  static boolean almostEqual(double a, double b, double epsilon) {
    if (Double.isNaN(a) && Double.isNaN(b)) {
      return true;
    }
    if (a == b) {
      return true;
    }
    double absSum = Math.abs(a) + Math.abs(b);
    double diff = Math.abs(a - b);
    if (a == 0 || b == 0 || absSum < Double.MIN_NORMAL) {
      return diff < epsilon * Double.MIN_NORMAL;
    }
    return diff / Math.min(absSum, Double.MAX_VALUE) < epsilon;
  }

  private static <T> String first(TreeSet<T> set) {
    List<T> some = new ArrayList<>();
    for (T t : set) {
      if (some.size() == 3) {
        break;
      }
      some.add(t);
    }
    return set.isEmpty()
        ? "none"
        : some + (set.size() > 3 ? " and " + (set.size() - 3) + " more" : "");
  }
}
