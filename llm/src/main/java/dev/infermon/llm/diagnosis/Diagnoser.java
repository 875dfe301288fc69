package dev.infermon.llm.diagnosis;

import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.signals.Signal;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Walks the causal chain per model and pod over a window, through PromQL only (so it works against
 * the embedded engine or a remote Prometheus): the catalog's canonical signals compiled for the
 * engines the store holds (requests running and waiting, waiting by reason, KV usage, preemptions,
 * TTFT, ITL, queue and prefill time, prompt length, prefix-cache hits, speculative-decoding
 * acceptance, success and finish reasons, GPU activity and memory), read as range queries, plus the
 * alert pack's symptoms per model, then judged by {@link Rules}. The inventory (which engines,
 * which families) comes from the shared {@link InventoryService}, over the window diagnosed.
 * Stateless; thread-safe when the backend is. Reached through {@link DiagnosisService}, which
 * decides the window and step.
 */
final class Diagnoser {
  /** The labels a pod's series are grouped by. */
  static final List<String> GROUP = List.of("model_name", "namespace", "pod", "role");

  private final InventoryService inventories;
  private final QueryBackend backend;

  Diagnoser(InventoryService inventories, QueryBackend backend) {
    if (inventories == null || backend == null) {
      throw new IllegalArgumentException("inventories and backend are required");
    }
    this.inventories = inventories;
    this.backend = backend;
  }

  /**
   * Diagnoses {@code [startMs, endMs]} at {@code stepMs} resolution, judged by {@code thresholds}.
   *
   * @throws IllegalArgumentException when the window is empty or the step not positive
   */
  Diagnosis diagnose(long startMs, long endMs, long stepMs, Thresholds thresholds) {
    if (endMs <= startMs || stepMs <= 0) {
      throw new IllegalArgumentException(
          "bad window: start " + startMs + ", end " + endMs + ", step " + stepMs);
    }
    Window w = new Window(startMs, endMs, stepMs);
    Inventory inv = inventories.inventory(endMs, endMs - startMs);
    PromqlCompiler compiler = new PromqlCompiler(inventories.catalog());
    // rate windows of at least four 15 s scrapes, and never shorter than the step
    String rate = duration(Math.max(120_000L, stepMs));
    Presence presence = Presence.ofTargets(inv, inventories.catalog());
    double q = thresholds.alerts().ttftQuantile();
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(Filters.NONE, Map.of(), q, rate, presence);
    Map<String, Signals.Series> data = new LinkedHashMap<>();
    Map<String, Signals.Series> models = new LinkedHashMap<>();
    Signals s = new Signals(w, data, models);
    for (Map.Entry<String, Measure> m : podMeasures(q).entrySet()) {
      s.put(m.getKey(), query(compiler, m.getValue(), GROUP, o, w), false);
    }
    s.putBy("reason", "waiting_", query(compiler, WAITING_BY_REASON, GROUP, o, w));
    s.putBy("finished_reason", "finished_", query(compiler, BY_FINISH_REASON, GROUP, o, w));
    s.put("gpu_memory", raw(GPU_MEMORY, w), true);
    s.put("restarts", raw(restarts(rate), w), true);
    s.put("down", raw("1 - min by (namespace, pod) (up)", w), true);
    // the symptoms as the alert pack computes them: per namespace and model, over its 5m rates
    PromqlCompiler.Options alertOptions =
        new PromqlCompiler.Options(Filters.NONE, Map.of(), q, ALERT_RATE, presence);
    for (Map.Entry<String, Measure> m : modelMeasures(q).entrySet()) {
      s.putModel(m.getKey(), query(compiler, m.getValue(), BY_MODEL, alertOptions, w));
    }
    Optional<String> queued = waitingWhilePreempting(compiler, q, presence);
    s.putModel(
        "m_waiting",
        queued.isPresent() ? raw(queued.get(), w) : new Signals.Result("", new Matrix(List.of())));
    List<String> pods = new ArrayList<>();
    Set<String> examined = new HashSet<>();
    for (Signals.Series p : data.values()) {
      if (!p.model.isEmpty()) {
        pods.add(p.namespace + "/" + p.pod + " (" + p.model + ")");
        examined.add(p.namespace + "/" + p.pod);
      }
    }
    List<Finding> findings = new Rules(thresholds, w, data, models).findings();
    return new Diagnosis(
        startMs, endMs, pods, findings, Readings.notMeasured(data), unexamined(inv, examined));
  }

  /**
   * The inference targets scraped in the window whose pod no query of the diagnosis returned: a
   * page without the families it reads (cut, an engine the catalog does not know), so nothing of
   * them was judged.
   */
  private List<String> unexamined(Inventory inv, Set<String> examined) {
    List<String> out = new ArrayList<>();
    for (TargetInventory t : inv.targets()) {
      String pod = t.label("namespace") + "/" + t.label("pod");
      if (inventories.catalog().isGpuExporter(t.engine())
          || !t.up()
          || t.label("pod").isEmpty()
          || examined.contains(pod)) {
        continue;
      }
      String why =
          t.engine().equals(Detection.UNKNOWN)
              ? "no family of its page is one of an engine the catalog knows"
              : "its page has none of the families diagnosis reads per model and pod (it has "
                  + t.families().size()
                  + " "
                  + t.engine()
                  + (t.families().size() == 1 ? " family)" : " families)");
      if (!out.contains(pod + ": " + why)) {
        out.add(pod + ": " + why);
      }
    }
    return out;
  }

  /** How the alert pack groups its alerts. */
  static final List<String> BY_MODEL = List.of("namespace", "model_name");

  /** The alert pack's rate window (export.AlertPack). */
  static final String ALERT_RATE = "5m";

  private static final Measure WAITING_BY_REASON =
      new Measure.Level(Signal.REQUESTS_WAITING_BY_REASON);
  private static final Measure BY_FINISH_REASON =
      new Measure.Rate(Signal.REQUESTS_BY_FINISH_REASON);

  /** What is read per pod, by {@link Signals} key; {@code q} the alert pack's TTFT quantile. */
  static Map<String, Measure> podMeasures(double q) {
    Map<String, Measure> m = new LinkedHashMap<>();
    m.put("running", new Measure.Level(Signal.REQUESTS_RUNNING));
    m.put("waiting", new Measure.Level(Signal.REQUESTS_WAITING));
    m.put("kv", new Measure.Level(Signal.KV_USAGE));
    m.put("asleep", new Measure.Level(Signal.ENGINES_ASLEEP));
    m.put("preemptions", new Measure.Rate(Signal.PREEMPTIONS));
    m.put("ttft", new Measure.Quantile(Signal.TTFT, q));
    m.put("ttft_mean", new Measure.Mean(Signal.TTFT));
    m.put("itl_mean", new Measure.Mean(Signal.ITL));
    m.put("queue_time", new Measure.Mean(Signal.QUEUE_TIME));
    m.put("prefill_time", new Measure.Mean(Signal.PREFILL_TIME));
    m.put("prompt_len", new Measure.Mean(Signal.PROMPT_LENGTH));
    m.put(
        "prefix_hit",
        new Measure.Ratio(
            new Measure.Rate(Signal.PREFIX_CACHE_HITS),
            new Measure.Rate(Signal.PREFIX_CACHE_QUERIES)));
    m.put(
        "spec_accept",
        new Measure.Ratio(
            new Measure.Rate(Signal.SPEC_ACCEPTED_TOKENS),
            new Measure.Rate(Signal.SPEC_DRAFT_TOKENS)));
    m.put("spec_accept_gauge", new Measure.Level(Signal.SPEC_ACCEPTANCE));
    m.put("success", new Measure.SuccessRate());
    m.put("finished", new Measure.Rate(Signal.REQUESTS_FINISHED));
    m.put("failed", new Measure.Rate(Signal.REQUESTS_FAILED));
    m.put("sm_active", new Measure.Gpu(Signal.GPU_SM_ACTIVE));
    m.put("tensor_active", new Measure.Gpu(Signal.GPU_TENSOR_ACTIVE));
    m.put("gpu_util", new Measure.Gpu(Signal.GPU_UTIL));
    return m;
  }

  /** What is read per model, as the alert pack reads it, by {@link Signals} key. */
  static Map<String, Measure> modelMeasures(double q) {
    Map<String, Measure> m = new LinkedHashMap<>();
    m.put("m_ttft", new Measure.Quantile(Signal.TTFT, q));
    m.put("m_preemptions", new Measure.Rate(Signal.PREEMPTIONS));
    m.put("m_success", new Measure.SuccessRate());
    // the pack's minimum of failed requests (llm.alerts.failure_min_count) is judged on it
    m.put("m_failed", new Measure.Rate(Signal.REQUESTS_FAILED));
    return m;
  }

  /**
   * The requests waiting per model on the engines that preempt, read as the alert pack's
   * queue-while-preempting rule reads them ({@link dev.infermon.llm.catalog.Catalog#servingBy}):
   * per engine, its own queue where that engine's own preemptions are above 0, the largest of them
   * where several engines serve the model. Over the pack's threshold exactly where the rule's
   * condition holds; no point where no engine of the model preempts. The queues of engines that
   * report no preemption (NIM, TGI, llama.cpp, ...) are never added to a preempting engine's, nor
   * one engine's queue paired with another's preemptions.
   */
  private Optional<String> waitingWhilePreempting(PromqlCompiler c, double q, Presence presence) {
    List<Spelling> all = new ArrayList<>();
    inventories.catalog().engines().forEach(e -> all.addAll(e.spellings()));
    List<String> parts = new ArrayList<>();
    for (Set<Spelling> one : inventories.catalog().servingBy(Signal.PREEMPTIONS, all)) {
      PromqlCompiler.Options mine =
          new PromqlCompiler.Options(
              Filters.NONE, Map.of(), q, ALERT_RATE, Presence.spellings(one).and(presence));
      var waiting = c.compile(new Measure.Level(Signal.REQUESTS_WAITING), BY_MODEL, mine);
      var preempt = c.compile(new Measure.Rate(Signal.PREEMPTIONS), BY_MODEL, mine);
      if (waiting.isPresent() && preempt.isPresent()) {
        String engine = one.iterator().next().engine();
        parts.add(
            "label_replace(("
                + waiting.get()
                + ") and on (namespace, model_name) (("
                + preempt.get()
                + ") > 0), \"engine\", \""
                + engine
                + "\", \"\", \"\")");
      }
    }
    if (parts.isEmpty()) {
      return Optional.empty();
    }
    // each part is labelled with its engine because "or" keeps the left one of equal label sets,
    // where max must compare both
    return Optional.of("max by (namespace, model_name) (" + String.join(" or ", parts) + ")");
  }

  /**
   * Used GPU memory over the total, per inference pod the GPU is attributed to: dcgm-exporter's
   * framebuffer fields or AMD device-metrics-exporter's VRAM (amdgpu.yaml).
   */
  static final String GPU_MEMORY =
      "max by (namespace, pod) (label_replace(label_replace(("
          + "DCGM_FI_DEV_FB_USED / (DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE + DCGM_FI_DEV_FB_RESERVED)"
          + " or gpu_used_vram / gpu_total_vram),"
          + " \"pod\", \"$1\", \"exported_pod\", \"(.+)\"),"
          + " \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"))";

  /** Process restarts, from the start time where the engine exports it, else counter resets. */
  static String restarts(String window) {
    return "max by (namespace, pod) (changes(process_start_time_seconds[" + window + "]))";
  }

  private Signals.Result query(
      PromqlCompiler compiler, Measure m, List<String> by, PromqlCompiler.Options o, Window w) {
    Optional<String> q = compiler.compile(m, by, o);
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
