package dev.infermon.llm.diagnosis;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Walks the causal chain per model and pod over a window, through PromQL only (so it works against
 * the embedded engine or a remote Prometheus): the catalog's canonical signals compiled for the
 * engines the store holds (requests running and waiting, waiting by reason, KV usage, preemptions,
 * TTFT and ITL, success, GPU activity and memory), read as range queries, then judged by {@link
 * Rules}. The inventory (which engines, which families) comes from the shared {@link
 * InventoryService}, over the window diagnosed. Stateless apart from its settings; thread-safe when
 * the backend is. Reached through {@link DiagnosisService}, which decides the window and step.
 */
final class Diagnoser {
  /** The labels a pod's series are grouped by. */
  static final List<String> GROUP = List.of("model_name", "namespace", "pod", "role");

  private final InventoryService inventories;
  private final QueryBackend backend;
  private final Thresholds thresholds;

  Diagnoser(InventoryService inventories, QueryBackend backend, Thresholds thresholds) {
    if (inventories == null || backend == null || thresholds == null) {
      throw new IllegalArgumentException("inventories, backend and thresholds are required");
    }
    this.inventories = inventories;
    this.backend = backend;
    this.thresholds = thresholds;
  }

  /**
   * Diagnoses {@code [startMs, endMs]} at {@code stepMs} resolution.
   *
   * @throws IllegalArgumentException when the window is empty or the step not positive
   */
  Diagnosis diagnose(long startMs, long endMs, long stepMs) {
    if (endMs <= startMs || stepMs <= 0) {
      throw new IllegalArgumentException(
          "bad window: start " + startMs + ", end " + endMs + ", step " + stepMs);
    }
    Window w = new Window(startMs, endMs, stepMs);
    Inventory inv = inventories.inventory(endMs, endMs - startMs);
    PromqlCompiler compiler = new PromqlCompiler(inventories.catalog());
    // rate windows of at least four 15 s scrapes, and never shorter than the step
    String rate = duration(Math.max(120_000L, stepMs));
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(Filters.NONE, Map.of(), 0.95, rate, Presence.of(inv.families()));
    Map<String, Signals.Series> data = new LinkedHashMap<>();
    Signals s = new Signals(w, data);
    s.put("running", query(compiler, new Measure.Level(Signal.REQUESTS_RUNNING), o, w), false);
    s.put("waiting", query(compiler, new Measure.Level(Signal.REQUESTS_WAITING), o, w), false);
    s.putByReason(query(compiler, new Measure.Level(Signal.REQUESTS_WAITING_BY_REASON), o, w));
    s.put("kv", query(compiler, new Measure.Level(Signal.KV_USAGE), o, w), false);
    s.put("preemptions", query(compiler, new Measure.Rate(Signal.PREEMPTIONS), o, w), false);
    s.put("ttft_p95", query(compiler, new Measure.Quantile(Signal.TTFT, 0.95), o, w), false);
    s.put("itl_mean", query(compiler, new Measure.Mean(Signal.ITL), o, w), false);
    s.put("success", query(compiler, new Measure.SuccessRate(), o, w), false);
    s.put("finished", query(compiler, new Measure.Rate(Signal.REQUESTS_FINISHED), o, w), false);
    s.put("sm_active", query(compiler, new Measure.Gpu(Signal.GPU_SM_ACTIVE), o, w), false);
    s.put("tensor_active", query(compiler, new Measure.Gpu(Signal.GPU_TENSOR_ACTIVE), o, w), false);
    s.put("gpu_util", query(compiler, new Measure.Gpu(Signal.GPU_UTIL), o, w), false);
    s.put("gpu_memory", raw(GPU_MEMORY, w), true);
    s.put("restarts", raw(restarts(rate), w), true);
    s.put("down", raw("1 - min by (namespace, pod) (up)", w), true);
    List<String> pods = new ArrayList<>();
    for (Signals.Series p : data.values()) {
      if (!p.model.isEmpty()) {
        pods.add(p.namespace + "/" + p.pod + " (" + p.model + ")");
      }
    }
    List<Finding> findings = new Rules(thresholds, w, data).findings();
    return new Diagnosis(startMs, endMs, pods, findings);
  }

  /** Used GPU memory over the total, per inference pod the GPU is attributed to. */
  static final String GPU_MEMORY =
      "max by (namespace, pod) (label_replace(label_replace("
          + "DCGM_FI_DEV_FB_USED / (DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE + DCGM_FI_DEV_FB_RESERVED),"
          + " \"pod\", \"$1\", \"exported_pod\", \"(.+)\"),"
          + " \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"))";

  /** Process restarts, from the start time where the engine exports it, else counter resets. */
  static String restarts(String window) {
    return "max by (namespace, pod) (changes(process_start_time_seconds[" + window + "]))";
  }

  private Signals.Result query(
      PromqlCompiler compiler, Measure m, PromqlCompiler.Options o, Window w) {
    Optional<String> q = compiler.compile(m, GROUP, o);
    if (q.isEmpty()) {
      return new Signals.Result("", new Matrix(List.of()));
    }
    return raw(q.get(), w);
  }

  private Signals.Result raw(String query, Window w) {
    QueryResult r = backend.rangeQuery(query, w.start, w.end, w.step);
    Matrix m = r.value() instanceof Matrix ? (Matrix) r.value() : new Matrix(List.of());
    return new Signals.Result(query, m);
  }

  static String duration(long ms) {
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    return ms / 1000 + "s";
  }

  /** The key of a series: {@code model|namespace|pod|role}. */
  static String key(Labels l) {
    return val(l, "model_name")
        + "|"
        + val(l, "namespace")
        + "|"
        + val(l, "pod")
        + "|"
        + val(l, "role");
  }

  static String val(Labels l, String name) {
    String v = l.get(name);
    return v == null ? "" : v;
  }
}
