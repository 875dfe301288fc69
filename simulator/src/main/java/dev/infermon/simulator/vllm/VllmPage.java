package dev.infermon.simulator.vllm;

import dev.infermon.simulator.model.EngineParams;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.text.Families;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.MultiprocDir;
import dev.infermon.simulator.text.PromText;
import dev.infermon.simulator.text.PythonFamilies;
import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonFamilies.HistogramChild;
import dev.infermon.simulator.text.PythonProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The {@code /metrics} page of one vLLM server. Family names, HELP texts, label names, children and
 * their order are those of the real pages: the 2026-09 capture for {@link VllmRelease#V1_CURRENT},
 * {@code vllm-0.11.x-idle.txt} for {@link VllmRelease#V0_11} and {@code vllm-0.4.3.txt} for {@link
 * VllmRelease#V0_4_3}. Stateless; {@link #render} reads the engines' metrics and state as they are.
 */
public final class VllmPage {
  private VllmPage() {}

  /**
   * One engine core of the pod ({@code engine} label = its index; V1 data parallelism runs
   * several).
   *
   * @param index the data-parallel rank
   * @param metrics what it counted
   * @param state its scheduler now
   * @param sleepLevel 0 awake, else the sleep mode level (1 or 2) it sleeps at ({@link VllmSleep})
   */
  public record Engine(int index, VllmMetrics metrics, EngineState state, int sleepLevel) {
    /** Validates the level. */
    public Engine {
      if (sleepLevel < 0 || sleepLevel > 2) {
        throw new IllegalArgumentException("sleepLevel must be 0, 1 or 2, got " + sleepLevel);
      }
    }

    /** An awake engine. */
    public Engine(int index, VllmMetrics metrics, EngineState state) {
      this(index, metrics, state, 0);
    }
  }

  /**
   * What the page shows.
   *
   * @param release which release's page
   * @param modelName the served model name ({@code model_name})
   * @param engines one per data-parallel rank (exactly one for V0)
   * @param params the engines' configuration ({@code cache_config_info})
   * @param startEpoch when the server (re)started, epoch seconds
   * @param now the page's time, epoch seconds
   */
  public record View(
      VllmRelease release,
      String modelName,
      List<Engine> engines,
      EngineParams params,
      double startEpoch,
      double now) {
    /** Validates. */
    public View {
      if (engines.isEmpty()) {
        throw new IllegalArgumentException("a vLLM page needs at least one engine");
      }
      if (release.isV0() && engines.size() != 1) {
        throw new IllegalArgumentException("V0 has no data-parallel engines: " + engines.size());
      }
      engines = List.copyOf(engines);
    }
  }

  private static final String RUNNING_HELP = "Number of requests in model execution batches.";
  private static final String WAITING_HELP = "Number of requests waiting to be processed.";
  private static final String WAITING_BY_REASON_HELP =
      "Number of waiting requests by reason. Reason labels: 'capacity' = waiting for scheduling"
          + " capacity; 'deferred' = deferred by transient constraints (LoRA budget, KV transfer,"
          + " blocked status). Sum of all reasons equals vllm:num_requests_waiting.";
  private static final String SLEEP_HELP =
      "Engine sleep state; awake = 0 means engine is sleeping; awake = 1 means engine is awake;"
          + " weights_offloaded = 1 means sleep level 1; discard_all = 1 means sleep level 2.";
  private static final String MFU_HELP_TAIL = " (for Model Flops Utilization calculations).";

  /** Renders the page as the real server would at {@code view.now()}. */
  public static String render(View v) {
    PromText out = new PromText(48 * 1024 + 64 * 1024 * v.engines().size());
    boolean v0 = v.release().isV0();
    VllmLmcache lmc = v0 ? null : v.engines().get(0).metrics().lmcache();
    if (lmc != null) {
      renderMultiprocess(v, lmc, out);
      return out.toString();
    }
    Families f = new PythonFamilies(out, false, !v0);
    new PythonProcess(
            pythonVersion(v.release()),
            v.startEpoch(),
            v.now(),
            1.09e9 + 3.1e5 * v.engines().size(),
            8.98e9,
            1048576)
        .write(out);
    CreatedClock created = new CreatedClock(v.startEpoch());
    if (v0) {
      VllmV0Page.render(v, f);
    } else {
      renderV1(v, f, created);
    }
    return out.toString();
  }

  /**
   * The page of a pod whose {@code vllm serve} has {@code PROMETHEUS_MULTIPROC_DIR} set, as it must
   * for LMCache's families to be served (lmcache.yaml's header). get_prometheus_registry then
   * returns a fresh CollectorRegistry holding only a MultiProcessCollector (vllm-project/vllm
   * vllm/v1/metrics/prometheus.py @ 9ef2b8ff), so the page is the directory's files ({@link
   * MultiprocDir}): no python_/process_ families (the default registry's collectors are not in that
   * registry) and no _created. vLLM's own families are the API server's (PrometheusStatLogger runs
   * in AsyncLLM), their gauges multiprocess_mode mostrecent (vllm/v1/metrics/loggers.py); LMCache's
   * are its TP workers' ({@link VllmLmcache#render}). attach_router
   * (vllm/entrypoints/serve/instrumentator/metrics.py @ 02a69ad2) gives that same registry to the
   * Instrumentator, whose default metrics register their collectors in it
   * (trallnag/prometheus-fastapi-instrumentator middleware.py, metrics.py @ c1c1fb64): so the
   * http_* families print twice, from the files and then from the API server's memory, the second
   * time in single-process layout with _created (trallnag/prometheus-fastapi-instrumentator#227
   * shows the doubled families).
   */
  private static void renderMultiprocess(View v, VllmLmcache lmc, PromText out) {
    MultiprocDir dir = new MultiprocDir();
    CreatedClock created = new CreatedClock(v.startEpoch());
    renderV1(v, dir.process(API_SERVER_PID, "mostrecent"), created);
    // its model_name is vLLM's model path, served_model_name the served name
    lmc.render(dir, FIRST_WORKER_PID, "/mnt/models/" + v.modelName(), v.modelName());
    dir.write(out);
    VllmServerFamilies.http(new PythonFamilies(out, false, true), v, created);
  }

  /** The API server's process id in the multiprocess files' names ({@code vllm serve} as PID 1). */
  static final int API_SERVER_PID = 1;

  /** The first TP worker's process id; worker {@code i} is this plus {@code i}. */
  static final int FIRST_WORKER_PID = 215;

  /**
   * {@code SpecDecodingProm} of {@code vllm/v1/spec_decode/metrics.py} (vllm-project/vllm @
   * 016a8587): registered first when {@code --speculative-config} is set, names and HELP texts as
   * on the real spec-decode page (jvr0x/lmswitch tests/fixtures/vllm_metrics.txt @ f5803ce).
   */
  private static void renderSpecDecode(
      List<Engine> engines, String model, Families f, CreatedClock created) {
    f.counter(
        "vllm:spec_decode_num_drafts",
        "Number of spec decoding drafts.",
        perEngine(engines, model, created, e -> e.metrics().specDrafts));
    f.counter(
        "vllm:spec_decode_num_draft_tokens",
        "Number of draft tokens.",
        perEngine(engines, model, created, e -> e.metrics().specDraftTokens));
    f.counter(
        "vllm:spec_decode_num_accepted_tokens",
        "Number of accepted tokens.",
        perEngine(engines, model, created, e -> e.metrics().specAccepted));
    List<Child> perPos = new ArrayList<>();
    for (Engine e : engines) {
      long[] byPos = e.metrics().specAcceptedPerPos;
      for (int i = 0; i < byPos.length; i++) {
        perPos.add(
            new Child(labels(e, model, "position", Integer.toString(i)), byPos[i], created.next()));
      }
    }
    f.counter(
        "vllm:spec_decode_num_accepted_tokens_per_pos",
        "Accepted tokens per draft position.",
        perPos);
  }

  private static String pythonVersion(VllmRelease r) {
    switch (r) {
      case V1_CURRENT:
        return "3.12.13";
      case V0_11:
        return "3.10.19";
      default:
        return "3.10.12";
    }
  }

  // ---------------------------------------------------------------------------------------------
  // V1 (0.11 and current)

  private static void renderV1(View v, Families f, CreatedClock created) {
    boolean current = v.release() == VllmRelease.V1_CURRENT;
    String model = v.modelName();
    List<Engine> engines = v.engines();
    if (engines.get(0).metrics().speculativeTokens() > 0) {
      renderSpecDecode(engines, model, f, created);
    }
    if (engines.get(0).metrics().nixl() != null) {
      // KVConnectorPrometheus, built in PrometheusStatLogger.__init__ beside SpecDecodingProm
      VllmNixl.render(engines, f, created, e -> labels(e, model));
    }
    if (current) {
      String[] mfu = {
        "vllm:estimated_flops_per_gpu",
        "Estimated number of floating point operations per GPU",
        "vllm:estimated_read_bytes_per_gpu",
        "Estimated number of bytes read from memory per GPU",
        "vllm:estimated_write_bytes_per_gpu",
        "Estimated number of bytes written to memory per GPU"
      };
      List<ToDoubleFunction<Engine>> values =
          List.of(e -> e.metrics().flops, e -> e.metrics().readBytes, e -> e.metrics().writeBytes);
      for (int i = 0; i < mfu.length; i += 2) {
        // registered always, incremented only with --enable-mfu-metrics (else 0)
        f.counter(
            mfu[i],
            mfu[i + 1] + MFU_HELP_TAIL,
            perEngine(engines, model, created, values.get(i / 2)));
      }
    }
    f.gauge(
        "vllm:num_requests_running",
        RUNNING_HELP,
        perEngine(engines, model, created, e -> e.state().running()));
    f.gauge(
        "vllm:num_requests_waiting",
        WAITING_HELP,
        perEngine(engines, model, created, e -> e.state().waiting()));
    if (current) {
      List<Child> byReason = new ArrayList<>();
      for (Engine e : engines) {
        byReason.add(
            new Child(labels(e, model, "reason", "capacity"), e.state().waitingCapacity(), 0));
        byReason.add(
            new Child(labels(e, model, "reason", "deferred"), e.state().waitingDeferred(), 0));
      }
      f.gauge("vllm:num_requests_waiting_by_reason", WAITING_BY_REASON_HELP, byReason);
      List<Child> sleep = new ArrayList<>();
      for (Engine e : engines) {
        int level = e.sleepLevel();
        sleep.add(new Child(labels(e, model, "sleep_state", "awake"), level == 0 ? 1 : 0, 0));
        sleep.add(
            new Child(labels(e, model, "sleep_state", "weights_offloaded"), level == 1 ? 1 : 0, 0));
        sleep.add(new Child(labels(e, model, "sleep_state", "discard_all"), level == 2 ? 1 : 0, 0));
      }
      f.gauge("vllm:engine_sleep_state", SLEEP_HELP, sleep);
    }
    f.gauge(
        "vllm:kv_cache_usage_perc",
        "KV-cache usage. 1 means 100 percent usage.",
        perEngine(engines, model, created, e -> e.state().kvUsage()));
    f.counter(
        "vllm:prefix_cache_queries",
        "Prefix cache queries, in terms of number of queried tokens.",
        perEngine(engines, model, created, e -> e.metrics().prefixQueries));
    f.counter(
        "vllm:prefix_cache_hits",
        "Prefix cache hits, in terms of number of cached tokens.",
        perEngine(engines, model, created, e -> e.metrics().prefixHits));
    if (current) {
      f.counter(
          "vllm:external_prefix_cache_queries",
          "External prefix cache queries from KV connector cross-instance cache sharing, in terms"
              + " of number of queried tokens.",
          perEngine(engines, model, created, e -> 0));
      f.counter(
          "vllm:external_prefix_cache_hits",
          "External prefix cache hits from KV connector cross-instance cache sharing, in terms of"
              + " number of cached tokens.",
          perEngine(engines, model, created, e -> 0));
      f.counter(
          "vllm:mm_cache_queries",
          "Multi-modal cache queries, in terms of number of queried items.",
          perEngine(engines, model, created, e -> 0));
      f.counter(
          "vllm:mm_cache_hits",
          "Multi-modal cache hits, in terms of number of cached items.",
          perEngine(engines, model, created, e -> 0));
    }
    f.counter(
        "vllm:num_preemptions",
        "Cumulative number of preemption from the engine.",
        perEngine(engines, model, created, e -> e.metrics().preemptions));
    f.counter(
        "vllm:prompt_tokens",
        "Number of prefill tokens processed.",
        perEngine(engines, model, created, e -> e.metrics().promptTokens));
    if (current) {
      List<Child> bySource = new ArrayList<>();
      for (Engine e : engines) {
        VllmMetrics m = e.metrics();
        bySource.add(
            new Child(
                labels(e, model, "source", "local_compute"), m.promptLocalCompute, created.next()));
        bySource.add(
            new Child(
                labels(e, model, "source", "local_cache_hit"),
                m.promptLocalCacheHit,
                created.next()));
        bySource.add(
            new Child(
                labels(e, model, "source", "external_kv_transfer"),
                m.promptExternal,
                created.next()));
      }
      f.counter("vllm:prompt_tokens_by_source", "Number of prompt tokens by source.", bySource);
      f.counter(
          "vllm:prompt_tokens_cached",
          "Number of cached prompt tokens (local + external).",
          perEngine(
              engines,
              model,
              created,
              e -> e.metrics().promptLocalCacheHit + e.metrics().promptExternal));
    }
    f.counter(
        "vllm:generation_tokens",
        "Number of generation tokens processed.",
        perEngine(engines, model, created, e -> e.metrics().generationTokens));
    int reasons = current ? VllmMetrics.FINISHED_REASONS.length : 3;
    List<Child> success = new ArrayList<>();
    for (Engine e : engines) {
      long[] finished = e.metrics().finished.clone();
      if (!current) {
        finished[2] += finished[3]; // 0.11 has no "error": failed requests finish as aborted
      }
      for (int r = 0; r < reasons; r++) {
        success.add(
            new Child(
                labels(e, model, "finished_reason", VllmMetrics.FINISHED_REASONS[r]),
                finished[r],
                created.next()));
      }
    }
    f.counter("vllm:request_success", "Count of successfully processed requests.", success);

    histogram(
        f,
        v,
        created,
        "vllm:request_prompt_tokens",
        "Number of prefill tokens processed.",
        m -> m.requestPromptTokens);
    histogram(
        f,
        v,
        created,
        "vllm:request_generation_tokens",
        "Number of generation tokens processed.",
        m -> m.requestGenerationTokens);
    histogram(
        f,
        v,
        created,
        "vllm:iteration_tokens_total",
        "Histogram of number of tokens per engine_step.",
        m -> m.iterationTokens);
    histogram(
        f,
        v,
        created,
        "vllm:request_max_num_generation_tokens",
        "Histogram of maximum number of requested generation tokens.",
        m -> m.maxNumGenerationTokens);
    histogram(
        f,
        v,
        created,
        "vllm:request_params_n",
        "Histogram of the n request parameter.",
        m -> m.paramsN);
    histogram(
        f,
        v,
        created,
        "vllm:request_params_max_tokens",
        "Histogram of the max_tokens request parameter.",
        m -> m.paramsMaxTokens);
    histogram(
        f,
        v,
        created,
        "vllm:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        m -> m.ttft);
    if (!current) {
      histogram(
          f,
          v,
          created,
          "vllm:time_per_output_token_seconds",
          "Histogram of time per output token in seconds.DEPRECATED: Use"
              + " vllm:inter_token_latency_seconds instead.",
          m -> m.itl);
    }
    histogram(
        f,
        v,
        created,
        "vllm:inter_token_latency_seconds",
        "Histogram of inter-token latency in seconds.",
        m -> m.itl);
    histogram(
        f,
        v,
        created,
        "vllm:request_time_per_output_token_seconds",
        "Histogram of time_per_output_token_seconds per request.",
        m -> m.requestTpot);
    histogram(
        f,
        v,
        created,
        "vllm:e2e_request_latency_seconds",
        "Histogram of e2e request latency in seconds.",
        m -> m.e2e);
    histogram(
        f,
        v,
        created,
        "vllm:request_queue_time_seconds",
        "Histogram of time spent in WAITING phase for request.",
        m -> m.queue);
    histogram(
        f,
        v,
        created,
        "vllm:request_inference_time_seconds",
        "Histogram of time spent in RUNNING phase for request.",
        m -> m.inference);
    histogram(
        f,
        v,
        created,
        "vllm:request_prefill_time_seconds",
        "Histogram of time spent in PREFILL phase for request.",
        m -> m.prefill);
    histogram(
        f,
        v,
        created,
        "vllm:request_decode_time_seconds",
        "Histogram of time spent in DECODE phase for request.",
        m -> m.decode);
    if (current) {
      histogram(
          f,
          v,
          created,
          "vllm:request_prefill_kv_computed_tokens",
          "Histogram of new KV tokens computed during prefill (excluding cached tokens).",
          m -> m.prefillKvComputed);
    }
    if (engines.get(0).metrics().kvResidency() != null) {
      // "KV Cache residency metrics", right after the prefill-KV histogram in loggers.py
      VllmKvResidency.render(engines, f, created, e -> labels(e, model));
    }
    VllmLora lora = engines.get(0).metrics().lora();
    if (lora != null) {
      // registered last in PrometheusStatLogger.__init__, before log_engine_initialized's info
      List<Child> children = new ArrayList<>();
      for (VllmLora.Child c : lora.children()) {
        String[] l = {
          "max_lora",
          lora.maxLora(),
          "waiting_lora_adapters",
          c.waiting(),
          "running_lora_adapters",
          c.running()
        };
        children.add(new Child(l, c.setAt(), 0));
      }
      f.gauge("vllm:lora_requests_info", "Running stats on lora requests.", children);
    }
    VllmServerFamilies.cacheConfigInfo(f, v);
    VllmServerFamilies.http(f, v, created);
  }

  // ---------------------------------------------------------------------------------------------
  // helpers

  private static void histogram(
      Families f,
      View v,
      CreatedClock created,
      String base,
      String help,
      Function<VllmMetrics, Histogram> pick) {
    histogram(f, v.engines(), created, e -> labels(e, v.modelName()), base, help, pick);
  }

  /**
   * One child per engine of {@code engines}, labelled by {@code labels}, picked from its metrics.
   */
  static void histogram(
      Families f,
      List<Engine> engines,
      CreatedClock created,
      Function<Engine, String[]> labels,
      String name,
      String help,
      Function<VllmMetrics, Histogram> pick) {
    List<HistogramChild> children = new ArrayList<>();
    for (Engine e : engines) {
      children.add(new HistogramChild(labels.apply(e), pick.apply(e.metrics()), created.next()));
    }
    f.histogram(name, help, children);
  }

  private static List<Child> perEngine(
      List<Engine> engines, String model, CreatedClock created, ToDoubleFunction<Engine> value) {
    List<Child> out = new ArrayList<>(engines.size());
    for (Engine e : engines) {
      out.add(new Child(labels(e, model), value.applyAsDouble(e), created.next()));
    }
    return out;
  }

  private static String[] labels(Engine e, String model) {
    return new String[] {"engine", Integer.toString(e.index()), "model_name", model};
  }

  private static String[] labels(Engine e, String model, String name, String value) {
    return new String[] {"engine", Integer.toString(e.index()), "model_name", model, name, value};
  }
}
