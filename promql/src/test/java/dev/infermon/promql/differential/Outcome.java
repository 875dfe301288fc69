package dev.infermon.promql.differential;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.TimeSeries;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * What one side answered to a range query: a matrix (series by label set, points by time) or an
 * error message. Immutable.
 */
record Outcome(Map<Labels, NavigableMap<Long, Double>> series, String error) {
  Outcome {
    series = series == null ? null : Collections.unmodifiableMap(new TreeMap<>(series));
  }

  static Outcome error(String message) {
    return new Outcome(null, message);
  }

  static Outcome of(Map<Labels, NavigableMap<Long, Double>> series) {
    return new Outcome(series, null);
  }

  /** infermon's matrix. */
  static Outcome of(Matrix m) {
    Map<Labels, NavigableMap<Long, Double>> out = new TreeMap<>();
    List<TimeSeries> all = m.series();
    for (TimeSeries s : all) {
      NavigableMap<Long, Double> points = new TreeMap<>();
      for (int i = 0; i < s.size(); i++) {
        points.put(s.timestampAt(i), s.valueAt(i));
      }
      out.put(s.labels(), points);
    }
    return of(out);
  }

  boolean failed() {
    return error != null;
  }

  /** Points in all series. */
  int points() {
    if (series == null) {
      return 0;
    }
    int n = 0;
    for (NavigableMap<Long, Double> p : series.values()) {
      n += p.size();
    }
    return n;
  }
}
