package dev.infermon.promql.differential;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.testing.PrometheusProcess;
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

  /**
   * Prometheus's answer to {@code /api/v1/query_range}: its matrix, or its error as {@code
   * errorType: error}.
   */
  @SuppressWarnings("unchecked")
  static Outcome ofPrometheus(String body) {
    Map<String, Object> root = (Map<String, Object>) PrometheusProcess.parseJson(body);
    if (!"success".equals(root.get("status"))) {
      return error(root.get("errorType") + ": " + root.get("error"));
    }
    Map<String, Object> data = (Map<String, Object>) root.get("data");
    if (!"matrix".equals(data.get("resultType"))) {
      throw new IllegalStateException("expected a matrix, got " + data.get("resultType"));
    }
    Map<Labels, NavigableMap<Long, Double>> out = new TreeMap<>();
    for (Object o : (List<Object>) data.get("result")) {
      Map<String, Object> s = (Map<String, Object>) o;
      Labels.Builder b = Labels.builder();
      ((Map<String, Object>) s.get("metric")).forEach((k, v) -> b.set(k, (String) v));
      NavigableMap<Long, Double> points = new TreeMap<>();
      for (Object p : (List<Object>) s.get("values")) {
        List<Object> pair = (List<Object>) p;
        long t = Math.round(((Number) pair.get(0)).doubleValue() * 1000);
        points.put(t, PrometheusProcess.goFloat((String) pair.get(1)));
      }
      out.put(b.build(), points);
    }
    return of(out);
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
