package dev.infermon.llm.diagnosis;

import dev.infermon.promql.value.Matrix;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Collects the window's signals per pod: each pod's series by signal name, with the query each came
 * from (for evidence). Signals grouped by namespace and pod only (GPU memory, restarts, up) are
 * attached to the pods with those labels; signals grouped as the alert pack groups ({@code
 * namespace, model_name}) go to one series per model. Not thread-safe; lives for one diagnosis.
 */
final class Signals {
  /** A range query's text and result. */
  record Result(String query, Matrix matrix) {}

  /** One pod's signals. */
  static final class Series {
    final String model;
    final String namespace;
    final String pod;
    final String role;
    final Map<String, double[]> values = new LinkedHashMap<>();
    final Map<String, String> queries = new HashMap<>();

    Series(String model, String namespace, String pod, String role) {
      this.model = model;
      this.namespace = namespace;
      this.pod = pod;
      this.role = role;
    }

    double[] get(String signal) {
      return values.get(signal);
    }

    /** The evidence of {@code signal} at point {@code i} of {@code w}, or null without a point. */
    Evidence evidence(String signal, String what, String note, int i, Window w) {
      double[] v = values.get(signal);
      if (v == null || i < 0 || i >= v.length || Double.isNaN(v[i])) {
        return null;
      }
      return new Evidence(what, queries.getOrDefault(signal, ""), series(), v[i], w.time(i), note);
    }

    String series() {
      StringBuilder sb = new StringBuilder("{model_name=\"").append(model).append('"');
      sb.append(", namespace=\"").append(namespace).append('"');
      sb.append(", pod=\"").append(pod).append('"');
      if (!role.isEmpty()) {
        sb.append(", role=\"").append(role).append('"');
      }
      return sb.append('}').toString();
    }
  }

  private final Window w;
  private final Map<String, Series> pods;
  private final Map<String, Series> models;

  /**
   * @param pods filled per pod, keyed {@code model|namespace|pod|role}
   * @param models filled per model, keyed {@code model|namespace}
   */
  Signals(Window w, Map<String, Series> pods, Map<String, Series> models) {
    this.w = w;
    this.pods = pods;
    this.models = models;
  }

  /** Adds a signal grouped by {@code namespace, model_name}. */
  void putModel(String signal, Result r) {
    Map<String, double[]> grid =
        w.grid(
            r.matrix(), l -> Diagnoser.val(l, "model_name") + "|" + Diagnoser.val(l, "namespace"));
    for (Map.Entry<String, double[]> e : grid.entrySet()) {
      Series s =
          models.computeIfAbsent(
              e.getKey(),
              k -> {
                String[] p = k.split("\\|", -1);
                return new Series(p[0], p[1], "", "");
              });
      s.values.put(signal, e.getValue());
      s.queries.put(signal, r.query());
    }
  }

  /** Adds a signal; {@code byPod} for results grouped by namespace and pod only. */
  void put(String signal, Result r, boolean byPod) {
    if (byPod) {
      Map<String, double[]> grid =
          w.grid(r.matrix(), l -> Diagnoser.val(l, "namespace") + "|" + Diagnoser.val(l, "pod"));
      for (Series s : pods.values()) {
        double[] v = grid.get(s.namespace + "|" + s.pod);
        if (v != null) {
          s.values.put(signal, v);
          s.queries.put(signal, r.query());
        }
      }
      return;
    }
    Map<String, double[]> grid = w.grid(r.matrix(), Diagnoser::key);
    for (Map.Entry<String, double[]> e : grid.entrySet()) {
      Series s = pod(e.getKey());
      s.values.put(signal, e.getValue());
      s.queries.put(signal, r.query());
    }
  }

  /**
   * Splits a signal by {@code label} into {@code <prefix><value>} signals (waiting by reason into
   * {@code waiting_deferred}, finished requests by finish reason into {@code finished_abort}).
   */
  void putBy(String label, String prefix, Result r) {
    Map<String, double[]> grid =
        w.grid(r.matrix(), l -> Diagnoser.key(l) + "#" + Diagnoser.val(l, label));
    for (Map.Entry<String, double[]> e : grid.entrySet()) {
      int hash = e.getKey().lastIndexOf('#');
      Series s = pod(e.getKey().substring(0, hash));
      String signal = prefix + e.getKey().substring(hash + 1);
      s.values.put(signal, e.getValue());
      s.queries.put(signal, r.query());
    }
  }

  private Series pod(String key) {
    return pods.computeIfAbsent(
        key,
        k -> {
          String[] p = k.split("\\|", -1);
          return new Series(p[0], p[1], p[2], p[3]);
        });
  }
}
