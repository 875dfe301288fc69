package dev.infermon.llm.capacity;

import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.signals.Signal;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads each pod's history for the estimate through PromQL only (the embedded engine or a remote
 * Prometheus), the catalog's canonical signals compiled for the engines and spellings the inventory
 * found: finished requests, generated tokens and preemptions as rates over one step, mean
 * inter-token latency over one step, KV usage and running requests averaged over each step (a
 * subquery), so each point describes its whole step. Stateless; thread-safe when the backend is.
 */
final class CapacityEstimator {
  static final List<String> GROUP = List.of("model_name", "namespace", "pod");

  private final InventoryService inventories;
  private final QueryBackend backend;

  CapacityEstimator(InventoryService inventories, QueryBackend backend) {
    if (inventories == null || backend == null) {
      throw new IllegalArgumentException("inventories and backend are required");
    }
    this.inventories = inventories;
    this.backend = backend;
  }

  /** The estimates over {@code (end - lookback, end]} at {@code step}, narrowed as asked. */
  CapacityReport estimate(
      long endMs,
      long lookbackMs,
      long stepMs,
      int currentSteps,
      Optional<String> model,
      Optional<String> pod) {
    long start = endMs - (lookbackMs / stepMs) * stepMs;
    int size = (int) ((endMs - start) / stepMs) + 1;
    Inventory inv = inventories.inventory(endMs, lookbackMs);
    String step = duration(stepMs);
    String sub = duration(Math.max(15_000, stepMs / 10 / 1000 * 1000));
    Filters f = model.map(m -> Filters.of(Map.of("model_name", m))).orElse(Filters.NONE);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            f, Map.of(), 0.5, step, Presence.ofTargets(inv, inventories.catalog()));
    PromqlCompiler c = new PromqlCompiler(inventories.catalog());
    Grid g = new Grid(start, stepMs, size);
    Map<String, Map<String, double[]>> bySignal = new LinkedHashMap<>();
    bySignal.put("rate", g.read(c.compile(new Measure.Rate(Signal.REQUESTS_FINISHED), GROUP, o)));
    bySignal.put("gen", g.read(c.compile(new Measure.Rate(Signal.GENERATION_TOKENS), GROUP, o)));
    bySignal.put("itl", g.read(c.compile(new Measure.Mean(Signal.ITL), GROUP, o)));
    bySignal.put("preempt", g.read(c.compile(new Measure.Rate(Signal.PREEMPTIONS), GROUP, o)));
    Optional<String> kv = c.compile(new Measure.Level(Signal.KV_USAGE), GROUP, o);
    bySignal.put("kv", g.read(over("avg_over_time", kv, step, sub)));
    bySignal.put("kvsd", g.read(over("stddev_over_time", kv, step, sub)));
    bySignal.put(
        "running",
        g.read(
            over(
                "avg_over_time",
                c.compile(new Measure.Level(Signal.REQUESTS_RUNNING), GROUP, o),
                step,
                sub)));
    return report(g, bySignal, endMs, lookbackMs, currentSteps, pod);
  }

  private static CapacityReport report(
      Grid g,
      Map<String, Map<String, double[]>> bySignal,
      long endMs,
      long lookbackMs,
      int currentSteps,
      Optional<String> pod) {
    TreeMap<String, List<Headroom>> podsByModel = new TreeMap<>();
    TreeMap<String, double[]> modelRate = new TreeMap<>();
    List<Headroom> pods = new ArrayList<>();
    for (String key : keys(bySignal)) {
      String[] k = key.split("\\|", -1);
      if (k[0].isEmpty() || pod.isPresent() && !pod.get().equals(k[2])) {
        continue;
      }
      PodHistory h =
          new PodHistory(
              k[0],
              k[1],
              k[2],
              g.times(),
              g.series(bySignal, "rate", key),
              g.series(bySignal, "gen", key),
              g.series(bySignal, "itl", key),
              g.series(bySignal, "kv", key),
              g.series(bySignal, "kvsd", key),
              g.series(bySignal, "running", key),
              g.series(bySignal, "preempt", key));
      Headroom r = HeadroomFit.pod(h, currentSteps);
      pods.add(r);
      String m = k[0] + "|" + k[1];
      podsByModel.computeIfAbsent(m, x -> new ArrayList<>()).add(r);
      double[] sum = modelRate.computeIfAbsent(m, x -> new double[g.size]);
      for (int i = 0; i < g.size; i++) {
        sum[i] += Double.isFinite(h.rate()[i]) ? h.rate()[i] : 0;
      }
    }
    List<Headroom> models = new ArrayList<>();
    for (Map.Entry<String, List<Headroom>> e : podsByModel.entrySet()) {
      String[] k = e.getKey().split("\\|", -1);
      models.add(
          CapacityMath.model(k[0], k[1], e.getValue(), g.times(), modelRate.get(e.getKey())));
    }
    return new CapacityReport(endMs, lookbackMs, g.step, models, pods);
  }

  /** Every pod any signal has, in model, namespace and pod order. */
  private static List<String> keys(Map<String, Map<String, double[]>> bySignal) {
    TreeMap<String, Boolean> keys = new TreeMap<>();
    for (Map<String, double[]> m : bySignal.values()) {
      m.keySet().forEach(k -> keys.put(k, true));
    }
    return new ArrayList<>(keys.keySet());
  }

  /**
   * A gauge's mean (or spread) over each step, through a subquery, so a point is the step's, not
   * one instant's sample.
   */
  private static Optional<String> over(
      String function, Optional<String> gauge, String step, String sub) {
    return gauge.map(q -> function + "((" + q + ")[" + step + ":" + sub + "])");
  }

  /** The step grid of one estimate; reads range queries onto it. */
  private final class Grid {
    final long start;
    final long step;
    final int size;

    Grid(long start, long step, int size) {
      this.start = start;
      this.step = step;
      this.size = size;
    }

    long[] times() {
      long[] t = new long[size];
      for (int i = 0; i < size; i++) {
        t[i] = start + i * step;
      }
      return t;
    }

    double[] series(Map<String, Map<String, double[]>> bySignal, String signal, String key) {
      double[] v = bySignal.get(signal).get(key);
      if (v != null) {
        return v;
      }
      double[] nan = new double[size];
      Arrays.fill(nan, Double.NaN);
      return nan;
    }

    /** Per pod key, a value per step; series of one pod (several roles, ranks) are summed. */
    Map<String, double[]> read(Optional<String> query) {
      Map<String, double[]> out = new LinkedHashMap<>();
      if (query.isEmpty()) {
        return out;
      }
      QueryResult r = backend.rangeQuery(query.get(), start, start + (size - 1) * step, step);
      if (!(r.value() instanceof Matrix)) {
        return out;
      }
      for (TimeSeries s : ((Matrix) r.value()).series()) {
        double[] v = out.computeIfAbsent(key(s.labels()), k -> nan());
        for (int i = 0; i < s.size(); i++) {
          int idx = (int) Math.round((double) (s.timestampAt(i) - start) / step);
          if (idx >= 0 && idx < size) {
            v[idx] = Double.isNaN(v[idx]) ? s.valueAt(i) : v[idx] + s.valueAt(i);
          }
        }
      }
      return out;
    }

    private double[] nan() {
      double[] a = new double[size];
      Arrays.fill(a, Double.NaN);
      return a;
    }
  }

  /** Whole seconds as a PromQL duration (steps are whole seconds). */
  static String duration(long ms) {
    return ms / 1000 + "s";
  }

  private static String key(Labels l) {
    return val(l, "model_name") + "|" + val(l, "namespace") + "|" + val(l, "pod");
  }

  private static String val(Labels l, String name) {
    String v = l.get(name);
    return v == null ? "" : v;
  }
}
