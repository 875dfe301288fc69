package dev.infermon.remote.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.promql.value.Annotation;
import dev.infermon.promql.value.Annotations;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.StringValue;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Value;
import dev.infermon.promql.value.Vector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the {@code data} of the Prometheus HTTP API into infermon's values: {@code resultType}
 * vector, matrix, scalar or string; label maps; metadata. Values are JSON strings in Go's
 * formatting ({@code "NaN"}, {@code "+Inf"}, {@code "-Inf"}); times are float seconds. A shape that
 * is not the API's is a {@link RemoteUnavailableException} (the far side is not what it claims to
 * be), not a wrong query. Stateless.
 */
final class Results {
  private Results() {}

  static QueryResult queryResult(ApiClient.Answer a) {
    JsonNode data = a.data();
    String type = data.path("resultType").asText("");
    JsonNode result = data.path("result");
    List<Annotation> notes = new ArrayList<>();
    for (String w : a.warnings()) {
      notes.add(new Annotation(Annotation.Severity.WARNING, w));
    }
    for (String i : a.infos()) {
      notes.add(new Annotation(Annotation.Severity.INFO, i));
    }
    return new QueryResult(value(type, result, notes), Annotations.of(notes));
  }

  private static Value value(String type, JsonNode result, List<Annotation> notes) {
    switch (type) {
      case "vector":
        return vector(result, notes);
      case "matrix":
        return matrix(result, notes);
      case "scalar":
        return new Scalar(timeMs(result.path(0)), number(result.path(1)));
      case "string":
        return new StringValue(timeMs(result.path(0)), result.path(1).asText());
      default:
        throw bad("unknown resultType \"" + type + "\"");
    }
  }

  private static Vector vector(JsonNode result, List<Annotation> notes) {
    List<Sample> out = new ArrayList<>(result.size());
    for (JsonNode e : array(result)) {
      JsonNode v = e.path("value");
      if (v.isMissingNode()) {
        skippedHistogram(notes);
        continue;
      }
      out.add(new Sample(labels(e.path("metric")), timeMs(v.path(0)), number(v.path(1))));
    }
    return new Vector(out);
  }

  private static Matrix matrix(JsonNode result, List<Annotation> notes) {
    List<TimeSeries> out = new ArrayList<>(result.size());
    for (JsonNode e : array(result)) {
      JsonNode values = e.path("values");
      if (e.has("histograms") && !values.isArray()) {
        skippedHistogram(notes);
        continue;
      }
      int n = values.size();
      long[] ts = new long[n];
      double[] vs = new double[n];
      for (int i = 0; i < n; i++) {
        ts[i] = timeMs(values.path(i).path(0));
        vs[i] = number(values.path(i).path(1));
      }
      try {
        out.add(TimeSeries.of(labels(e.path("metric")), ts, vs));
      } catch (IllegalArgumentException ex) {
        throw bad(ex.getMessage());
      }
    }
    return new Matrix(out);
  }

  private static void skippedHistogram(List<Annotation> notes) {
    notes.add(
        Annotation.warning(
            "native histogram samples from the remote API are not supported; skipped"));
  }

  static List<Labels> labelSets(JsonNode data) {
    List<Labels> out = new ArrayList<>(data.size());
    for (JsonNode e : array(data)) {
      out.add(labels(e));
    }
    out.sort(null);
    return out;
  }

  static List<String> strings(JsonNode data) {
    List<String> out = new ArrayList<>(data.size());
    for (JsonNode e : array(data)) {
      out.add(e.asText());
    }
    return out;
  }

  static Map<String, List<Metadata>> metadata(JsonNode data) {
    if (!data.isObject()) {
      throw bad("metadata is not an object");
    }
    Map<String, List<Metadata>> out = new TreeMap<>();
    for (Map.Entry<String, JsonNode> f : data.properties()) {
      List<Metadata> list = new ArrayList<>();
      for (JsonNode m : array(f.getValue())) {
        list.add(
            new Metadata(
                type(m.path("type").asText("unknown")),
                m.path("help").asText(""),
                m.path("unit").asText("")));
      }
      out.put(f.getKey(), List.copyOf(list));
    }
    return out;
  }

  private static MetricType type(String s) {
    try {
      return MetricType.parse(s);
    } catch (IllegalArgumentException e) {
      return MetricType.UNKNOWN;
    }
  }

  static Labels labels(JsonNode metric) {
    if (!metric.isObject()) {
      throw bad("a label set is not an object");
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> f : metric.properties()) {
      m.put(f.getKey(), f.getValue().asText());
    }
    try {
      return Labels.fromMap(m);
    } catch (IllegalArgumentException e) {
      throw bad(e.getMessage());
    }
  }

  /** Float seconds to milliseconds, rounded as Prometheus's API parses them. */
  static long timeMs(JsonNode t) {
    if (!t.isNumber()) {
      throw bad("a timestamp is not a number: " + t);
    }
    return Math.round(t.asDouble() * 1000);
  }

  /** A Go-formatted float string. */
  static double number(JsonNode v) {
    String s = v.asText();
    switch (s) {
      case "+Inf":
      case "Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      case "NaN":
        return Double.NaN;
      default:
        try {
          return Double.parseDouble(s);
        } catch (NumberFormatException e) {
          throw bad("a sample value is not a number: \"" + s + "\"");
        }
    }
  }

  private static Iterable<JsonNode> array(JsonNode n) {
    if (n.isNull() || n.isMissingNode()) {
      return List.of();
    }
    if (!n.isArray()) {
      throw bad("expected an array, got " + n.getNodeType());
    }
    return n;
  }

  private static RemoteUnavailableException bad(String what) {
    return new RemoteUnavailableException("unexpected answer from the remote query API: " + what);
  }
}
