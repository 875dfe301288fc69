package dev.infermon.llm.dashboard;

import static dev.infermon.llm.signals.Signal.CACHED_PROMPT_TOKENS;
import static dev.infermon.llm.signals.Signal.DECODE_TIME;
import static dev.infermon.llm.signals.Signal.E2E_LATENCY;
import static dev.infermon.llm.signals.Signal.GENERATION_LENGTH;
import static dev.infermon.llm.signals.Signal.GENERATION_TOKENS;
import static dev.infermon.llm.signals.Signal.GPU_COPY_UTIL;
import static dev.infermon.llm.signals.Signal.GPU_DRAM_ACTIVE;
import static dev.infermon.llm.signals.Signal.GPU_MEMORY_USED;
import static dev.infermon.llm.signals.Signal.GPU_SM_ACTIVE;
import static dev.infermon.llm.signals.Signal.GPU_TENSOR_ACTIVE;
import static dev.infermon.llm.signals.Signal.GPU_UTIL;
import static dev.infermon.llm.signals.Signal.ITL;
import static dev.infermon.llm.signals.Signal.KV_USAGE;
import static dev.infermon.llm.signals.Signal.PREEMPTIONS;
import static dev.infermon.llm.signals.Signal.PREFILL_TIME;
import static dev.infermon.llm.signals.Signal.PREFIX_CACHE_HITS;
import static dev.infermon.llm.signals.Signal.PREFIX_CACHE_QUERIES;
import static dev.infermon.llm.signals.Signal.PROMPT_LENGTH;
import static dev.infermon.llm.signals.Signal.PROMPT_TOKENS;
import static dev.infermon.llm.signals.Signal.QUEUE_TIME;
import static dev.infermon.llm.signals.Signal.REQUESTS_BY_FINISH_REASON;
import static dev.infermon.llm.signals.Signal.REQUESTS_FINISHED;
import static dev.infermon.llm.signals.Signal.REQUESTS_RUNNING;
import static dev.infermon.llm.signals.Signal.REQUESTS_SWAPPED;
import static dev.infermon.llm.signals.Signal.REQUESTS_WAITING;
import static dev.infermon.llm.signals.Signal.REQUESTS_WAITING_BY_REASON;
import static dev.infermon.llm.signals.Signal.TPOT;
import static dev.infermon.llm.signals.Signal.TTFT;

import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The LLM-inference dashboard as panel specs: the model across pods, each pod, each pod's GPUs, the
 * causal chain (KV usage → preemptions → waiting → TTFT, with the GPUs on the same time axis) per
 * model and per pod, and prefill/decode deployments by role. docs/dashboard.md describes every
 * panel. Immutable.
 */
final class OldDashboards {
  /** Section titles, in display order. */
  public static final List<String> SECTIONS =
      List.of(
          "Model",
          "Pod",
          "GPU per pod",
          "Causal chain per model",
          "Causal chain per pod",
          "Prefill / decode");

  private static final List<Panel> STANDARD = build();

  private OldDashboards() {}

  /** Every panel, in display order. */
  public static List<Panel> standard() {
    return STANDARD;
  }

  /**
   * The panel with {@code id}.
   *
   * @throws IllegalArgumentException naming the id when there is none
   */
  public static Panel panel(String id) {
    for (Panel p : STANDARD) {
      if (p.id().equals(id)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown panel: \"" + id + "\"");
  }

  private static List<Panel> build() {
    List<Panel> out = new ArrayList<>();
    String s = SECTIONS.get(0);
    Level m = Level.MODEL;
    out.add(
        p(
            "model.qps",
            s,
            "Requests per second",
            m,
            "reqps",
            q("{{model_name}}", rate(REQUESTS_FINISHED)),
            "Finished requests per second (any finish reason)."));
    out.add(
        p(
            "model.success_rate",
            s,
            "Success rate",
            m,
            "percentunit",
            q("{{model_name}}", new Measure.SuccessRate()),
            "Finished requests that succeeded: stop or length succeed, abort or error fail."));
    out.add(
        p(
            "model.e2e",
            s,
            "End-to-end latency",
            m,
            "s",
            latency(E2E_LATENCY),
            "Mean and selected quantile of request latency."));
    out.add(
        p(
            "model.tokens",
            s,
            "Token throughput",
            m,
            "tokens/s",
            List.of(
                q("{{model_name}} in", rate(PROMPT_TOKENS)),
                q("{{model_name}} out", rate(GENERATION_TOKENS)),
                q("{{model_name}} cached", rate(CACHED_PROMPT_TOKENS))),
            "Prompt (in), generated (out) and prefix-cached prompt tokens per second."));
    out.add(
        p(
            "model.tokens_per_gpu",
            s,
            "Token throughput per GPU",
            m,
            "tokens/s",
            List.of(
                q("{{model_name}} in/GPU", new Measure.PerGpu(rate(PROMPT_TOKENS))),
                q("{{model_name}} out/GPU", new Measure.PerGpu(rate(GENERATION_TOKENS)))),
            "Tokens per second divided by the GPUs attributed to the model's pods."));
    out.add(
        p(
            "model.prompt_length",
            s,
            "Prompt length",
            m,
            "none",
            latency(PROMPT_LENGTH),
            "Prompt tokens per request: mean and quantile."));
    out.add(
        p(
            "model.generation_length",
            s,
            "Generation length",
            m,
            "none",
            latency(GENERATION_LENGTH),
            "Generated tokens per request: mean and quantile."));
    out.add(heatmap("model.prompt_length_heatmap", s, "Prompt length distribution", PROMPT_LENGTH));
    out.add(
        heatmap(
            "model.generation_length_heatmap",
            s,
            "Generation length distribution",
            GENERATION_LENGTH));
    out.add(
        p(
            "model.ttft",
            s,
            "Time to first token",
            m,
            "s",
            latency(TTFT),
            "Mean and selected quantile of TTFT."));
    out.add(
        p(
            "model.tpot",
            s,
            "Time per output token",
            m,
            "s",
            List.of(
                q("{{model_name}} TPOT q", quantile(TPOT)),
                q("{{model_name}} ITL avg", mean(ITL)),
                q("{{model_name}} ITL q", quantile(ITL))),
            "Per-request TPOT (vLLM) and inter-token latency."));
    out.add(
        p(
            "model.prefix_cache_hit_rate",
            s,
            "Prefix-cache hit rate",
            m,
            "percentunit",
            q(
                "{{model_name}}",
                new Measure.Ratio(rate(PREFIX_CACHE_HITS), rate(PREFIX_CACHE_QUERIES))),
            "Cached prompt tokens / queried prompt tokens, from counters."));

    s = SECTIONS.get(1);
    Level pod = Level.POD;
    out.add(p("pod.e2e", s, "End-to-end latency", pod, "s", podLatency(E2E_LATENCY), ""));
    out.add(
        p(
            "pod.tokens",
            s,
            "Token throughput",
            pod,
            "tokens/s",
            List.of(
                q("{{pod}} in", rate(PROMPT_TOKENS)), q("{{pod}} out", rate(GENERATION_TOKENS))),
            ""));
    out.add(p("pod.ttft", s, "Time to first token", pod, "s", podLatency(TTFT), ""));
    out.add(
        p(
            "pod.tpot",
            s,
            "Time per output token",
            pod,
            "s",
            List.of(q("{{pod}} TPOT q", quantile(TPOT)), q("{{pod}} ITL q", quantile(ITL))),
            ""));
    out.add(
        p(
            "pod.kv_usage",
            s,
            "KV-cache usage",
            pod,
            "percentunit",
            q("{{pod}}", level(KV_USAGE)),
            "The fullest engine of the pod."));
    out.add(
        p(
            "pod.scheduler",
            s,
            "Scheduler state",
            pod,
            "none",
            List.of(
                q("{{pod}} running", level(REQUESTS_RUNNING)),
                q("{{pod}} waiting", level(REQUESTS_WAITING)),
                q("{{pod}} swapped", level(REQUESTS_SWAPPED))),
            "Running, waiting and (vLLM V0) swapped requests."));
    out.add(
        p(
            "pod.waiting_by_reason",
            s,
            "Waiting by reason",
            pod,
            "none",
            q("{{pod}} {{reason}}", level(REQUESTS_WAITING_BY_REASON)),
            "capacity: no room in the batch or KV cache; deferred: held back by a transient constraint."));
    out.add(
        p(
            "pod.finish_reasons",
            s,
            "Finish reasons",
            pod,
            "reqps",
            q("{{pod}} {{finished_reason}}", rate(REQUESTS_BY_FINISH_REASON)),
            ""));
    out.add(p("pod.queue_time", s, "Queue time", pod, "s", podLatency(QUEUE_TIME), ""));
    out.add(
        p(
            "pod.phases",
            s,
            "Prefill and decode time",
            pod,
            "s",
            List.of(
                q("{{pod}} prefill", mean(PREFILL_TIME)), q("{{pod}} decode", mean(DECODE_TIME))),
            "Mean time per request in each phase."));
    out.add(
        p(
            "pod.preemptions",
            s,
            "Preemption rate",
            pod,
            "ops",
            q("{{pod}}", rate(PREEMPTIONS)),
            ""));
    out.add(
        p(
            "pod.prefix_cache_hit_rate",
            s,
            "Prefix-cache hit rate",
            pod,
            "percentunit",
            q("{{pod}}", new Measure.Ratio(rate(PREFIX_CACHE_HITS), rate(PREFIX_CACHE_QUERIES))),
            ""));

    s = SECTIONS.get(2);
    Level gpu = Level.GPU;
    out.add(
        p(
            "gpu.tensor_active",
            s,
            "Tensor active",
            gpu,
            "percent",
            q("{{pod}} gpu {{gpu}}", new Measure.Gpu(GPU_TENSOR_ACTIVE)),
            "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE x 100."));
    out.add(
        p(
            "gpu.utilization",
            s,
            "GPU utilisation",
            gpu,
            "percent",
            q("{{pod}} gpu {{gpu}}", new Measure.Gpu(GPU_UTIL)),
            "Share of time any kernel ran (not how busy the SMs are)."));
    out.add(
        p(
            "gpu.sm_active",
            s,
            "SM active",
            gpu,
            "percent",
            q("{{pod}} gpu {{gpu}}", new Measure.Gpu(GPU_SM_ACTIVE)),
            "DCGM_FI_PROF_SM_ACTIVE x 100 (needs a custom counters CSV)."));
    out.add(
        p(
            "gpu.copy_utilization",
            s,
            "Memory-copy utilisation",
            gpu,
            "percent",
            q("{{pod}} gpu {{gpu}}", new Measure.Gpu(GPU_COPY_UTIL)),
            "Memory-interface busy time, not capacity."));
    out.add(
        p(
            "gpu.memory_used",
            s,
            "Memory used",
            gpu,
            "mbytes",
            q("{{pod}} gpu {{gpu}}", new Measure.Gpu(GPU_MEMORY_USED)),
            "Framebuffer used, MiB."));
    out.add(
        p(
            "gpu.dram_active",
            s,
            "DRAM active",
            gpu,
            "percent",
            q("{{pod}} gpu {{gpu}}", new Measure.Gpu(GPU_DRAM_ACTIVE)),
            "DCGM_FI_PROF_DRAM_ACTIVE x 100."));

    causal(out, SECTIONS.get(3), Level.MODEL, "model", "{{model_name}}");
    causal(out, SECTIONS.get(4), Level.POD, "pod", "{{pod}}");

    s = SECTIONS.get(5);
    Map<String, String> pd = Map.of("backend", ".*-pd");
    out.add(
        new Panel(
            "pd.ttft_user",
            s,
            "TTFT seen by users (decode side)",
            Level.ROLE,
            "s",
            Panel.Kind.TIMESERIES,
            Map.of("backend", ".*-pd", "role", "decode"),
            List.of(q("{{model_name}} q", quantile(TTFT)), q("{{model_name}} avg", mean(TTFT))),
            "The decode side measures from when it got the request, so it includes the prefill and the KV transfer."));
    out.add(
        new Panel(
            "pd.ttft_prefill",
            s,
            "Prefill pods' own time to first token",
            Level.ROLE,
            "s",
            Panel.Kind.TIMESERIES,
            Map.of("backend", ".*-pd", "role", "prefill"),
            List.of(
                q("{{model_name}} TTFT q", quantile(TTFT)),
                q("{{model_name}} prefill avg", mean(PREFILL_TIME))),
            "vLLM prefill pods report their own TTFT; SGLang prefill servers report none."));
    out.add(
        new Panel(
            "pd.running_by_role",
            s,
            "Running and waiting by role",
            Level.ROLE,
            "none",
            Panel.Kind.TIMESERIES,
            pd,
            List.of(
                q("{{model_name}} {{role}} running", level(REQUESTS_RUNNING)),
                q("{{model_name}} {{role}} waiting", level(REQUESTS_WAITING))),
            ""));
    out.add(
        new Panel(
            "pd.tokens_by_role",
            s,
            "Token throughput by role",
            Level.ROLE,
            "tokens/s",
            Panel.Kind.TIMESERIES,
            pd,
            List.of(
                q("{{model_name}} {{role}} in", rate(PROMPT_TOKENS)),
                q("{{model_name}} {{role}} out", rate(GENERATION_TOKENS))),
            ""));
    return List.copyOf(out);
  }

  private static void causal(List<Panel> out, String s, Level l, String prefix, String legend) {
    String id = "causal_" + prefix + ".";
    out.add(
        p(
            id + "kv_usage",
            s,
            "KV-cache usage",
            l,
            "percentunit",
            q(legend, level(KV_USAGE)),
            "1. The KV cache fills..."));
    out.add(
        p(
            id + "preemptions",
            s,
            "Preemption rate",
            l,
            "ops",
            q(legend, rate(PREEMPTIONS)),
            "2. ...preemptions start..."));
    out.add(
        p(
            id + "queue",
            s,
            "Waiting and running",
            l,
            "none",
            List.of(
                q(legend + " waiting", level(REQUESTS_WAITING)),
                q(legend + " running", level(REQUESTS_RUNNING))),
            "3. ...requests wait..."));
    out.add(
        p(
            id + "ttft_p95",
            s,
            "TTFT p95",
            l,
            "s",
            q(legend, new Measure.Quantile(TTFT, 0.95)),
            "4. ...and TTFT grows."));
    out.add(
        p(
            id + "gpu_sm",
            s,
            "GPU SM activity",
            l,
            "percent",
            List.of(
                q(legend + " SM active", new Measure.Gpu(GPU_SM_ACTIVE)),
                q(legend + " GPU util", new Measure.Gpu(GPU_UTIL))),
            "An idle GPU with a long queue points at batch or KV settings, not load."));
    out.add(
        p(
            id + "gpu_memory",
            s,
            "GPU memory used",
            l,
            "mbytes",
            q(legend, new Measure.Gpu(GPU_MEMORY_USED)),
            ""));
  }

  private static Panel heatmap(String id, String s, String title, Signal signal) {
    return new Panel(
        id,
        s,
        title,
        Level.MODEL,
        "none",
        Panel.Kind.HEATMAP,
        Map.of(),
        List.of(q("{{le}}", new Measure.Heatmap(signal))),
        "Requests per bucket over the window.");
  }

  private static List<Query> latency(Signal s) {
    return List.of(q("{{model_name}} avg", mean(s)), q("{{model_name}} q", quantile(s)));
  }

  private static List<Query> podLatency(Signal s) {
    return List.of(q("{{pod}} avg", mean(s)), q("{{pod}} q", quantile(s)));
  }

  private static Panel p(
      String id, String section, String title, Level l, String unit, Query q, String d) {
    return p(id, section, title, l, unit, List.of(q), d);
  }

  private static Panel p(
      String id, String section, String title, Level l, String unit, List<Query> qs, String d) {
    return new Panel(id, section, title, l, unit, Panel.Kind.TIMESERIES, Map.of(), qs, d);
  }

  private static Query q(String legend, Measure m) {
    return new Query(legend, m);
  }

  private static Measure level(Signal s) {
    return new Measure.Level(s);
  }

  private static Measure rate(Signal s) {
    return new Measure.Rate(s);
  }

  private static Measure mean(Signal s) {
    return new Measure.Mean(s);
  }

  private static Measure quantile(Signal s) {
    return new Measure.Quantile(s, null);
  }
}
