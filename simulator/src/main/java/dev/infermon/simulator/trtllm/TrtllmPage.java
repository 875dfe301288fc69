package dev.infermon.simulator.trtllm;

import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PromText;
import dev.infermon.simulator.text.PythonFamilies;
import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonFamilies.HistogramChild;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code /prometheus/metrics} page of one trtllm-serve: main's and 1.3's {@code trtllm_}
 * generation or 1.0's unprefixed one ({@link Release}). Names and HELP texts are those of {@code
 * tensorrt_llm/metrics/collector.py} at 050f80de (at 89fd9b74 for 1.0); the layout is
 * prometheus_client's multiprocess collector, which trtllm-serve mounts (openai_server.py {@code
 * mount_metrics}): no {@code _created}, labels sorted (le among them), a histogram's {@code _sum}
 * before its buckets and {@code _count}, a family only once a child exists, and every gauge with
 * the writing process's {@code pid}. Families follow the collector's files as #5785's sample page
 * shows them (histograms, then counters), gauges last, each file in the order its children were
 * created. Stateless.
 */
public final class TrtllmPage {
  private TrtllmPage() {}

  /** The release lines whose pages differ (trtllm.yaml's versions). */
  public enum Release {
    /**
     * The first page (#5785, collector.py @ 89fd9b74): the five request families without a prefix,
     * no gauge, and every latency of 0 left out (the collector's walrus tests).
     */
    V1_0,
    /**
     * The five request families prefixed, the KV-cache ones of #11243 and #12132; before #12545, so
     * a queue time of 0 is still left out.
     */
    V1_3,
    /** collector.py @ 050f80de. */
    MAIN;

    /** The release of a pod's version line ({@code 1.0}, {@code 1.3}, anything else main). */
    public static Release of(String version) {
      switch (version) {
        case "1.0":
          return V1_0;
        case "1.3":
          return V1_3;
        default:
          return MAIN;
      }
    }
  }

  /**
   * What the page shows.
   *
   * @param modelName the {@code model_name} label ({@code undefined} before #12545)
   * @param engineType the {@code engine_type} label
   * @param pid the OpenAI server process's id
   * @param maxBatchSize the executor's maximum batch (maxNumActiveRequests and the batch sizes)
   * @param maxNumTokens the executor's token budget per iteration
   * @param metrics what the server counted
   * @param release which page: 1.0's unprefixed five, 1.3's (before #12545: the five request
   *     families, the KV-cache gauges of #11243 and counters of #12132 only) or main's
   */
  public record View(
      String modelName,
      String engineType,
      int pid,
      int maxBatchSize,
      int maxNumTokens,
      TrtllmMetrics metrics,
      Release release) {}

  /** Renders the page at the metrics' current state. */
  public static String render(View v) {
    TrtllmMetrics m = v.metrics();
    PromText out = new PromText(24 * 1024);
    PythonFamilies f = new PythonFamilies(out, true, false);
    String[] model = {"engine_type", v.engineType(), "model_name", v.modelName()};
    EngineState s = m.state();
    String[] gauge = with(model, "pid", Integer.toString(v.pid()));
    if (v.release() == Release.V1_0) {
      release1dot0(f, model, m);
      return out.toString();
    }
    if (v.release() == Release.V1_3) {
      release1dot3(f, model, gauge, m, s);
      return out.toString();
    }
    histograms(f, model, m);
    counters(f, model, m);
    if (m.anyIteration && s != null) {
      gauges(f, gauge, v, m, s);
    }
    return out.toString();
  }

  /**
   * The 1.0 page: collector.py @ 89fd9b74 names the five families without a prefix (the HELP texts
   * are main's), histograms first as in #5785's sample page; the queue histogram is the one that
   * leaves out a queue time of 0, as every histogram did until #12545.
   */
  private static void release1dot0(PythonFamilies f, String[] model, TrtllmMetrics m) {
    histogram(
        f,
        "e2e_request_latency_seconds",
        "Histogram of end to end request latency in seconds.",
        model,
        m.e2e);
    histogram(
        f,
        "time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        model,
        m.ttft);
    histogram(
        f,
        "time_per_output_token_seconds",
        "Histogram of time per output token in seconds.",
        model,
        m.tpot);
    histogram(
        f,
        "request_queue_time_seconds",
        "Histogram of time spent in WAITING phase for request.",
        model,
        m.queuePositive);
    f.counter("request_success", "Count of successfully processed requests.", successes(model, m));
  }

  /** The 1.3 page: the core request families and the KV-cache ones of #11243 and #12132. */
  private static void release1dot3(
      PythonFamilies f, String[] model, String[] gauge, TrtllmMetrics m, EngineState s) {
    coreHistograms(f, model, m, m.queuePositive);
    success(f, model, m);
    f.counter(
        "trtllm_kv_cache_reused_blocks",
        "Cumulative number of KV cache blocks reused (cache hits)",
        m.reusedBlocks > 0 ? one(model, Math.floor(m.reusedBlocks)) : List.of());
    f.counter(
        "trtllm_kv_cache_missed_blocks",
        "Cumulative number of KV cache blocks missed (cache misses)",
        m.missedBlocks > 0 ? one(model, Math.floor(m.missedBlocks)) : List.of());
    if (m.anyIteration && s != null) {
      double lookedUp = m.reusedBlocks + m.missedBlocks;
      f.gauge(
          "trtllm_kv_cache_hit_rate",
          "KV cache hit rate",
          one(gauge, lookedUp > 0 ? Math.floor(m.reusedBlocks) / Math.floor(lookedUp) : 0.0));
      f.gauge("trtllm_kv_cache_utilization", "KV cache utilization", one(gauge, s.kvUsage()));
    }
  }

  /**
   * The request histograms of every prefixed release; {@code queue} is main's (0 observed since
   * #12545) or 1.3's (a 0 left out, as before #12545).
   */
  private static void coreHistograms(
      PythonFamilies f, String[] model, TrtllmMetrics m, Histogram queue) {
    histogram(
        f,
        "trtllm_e2e_request_latency_seconds",
        "Histogram of end to end request latency in seconds.",
        model,
        m.e2e);
    histogram(
        f,
        "trtllm_time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        model,
        m.ttft);
    histogram(
        f,
        "trtllm_time_per_output_token_seconds",
        "Histogram of time per output token in seconds.",
        model,
        m.tpot);
    histogram(
        f,
        "trtllm_request_queue_time_seconds",
        "Histogram of time spent in WAITING phase for request.",
        model,
        queue);
  }

  /** The finished requests by reason, in every release. */
  private static void success(PythonFamilies f, String[] model, TrtllmMetrics m) {
    f.counter(
        "trtllm_request_success", "Count of successfully processed requests.", successes(model, m));
  }

  private static List<Child> successes(String[] model, TrtllmMetrics m) {
    List<Child> success = new ArrayList<>();
    for (Map.Entry<String, Long> e : m.success.entrySet()) {
      success.add(new Child(with(model, "finished_reason", e.getKey()), e.getValue(), 0));
    }
    return success;
  }

  private static void histograms(PythonFamilies f, String[] model, TrtllmMetrics m) {
    coreHistograms(f, model, m, m.queue);
    histogram(
        f,
        "trtllm_request_prefill_time_seconds",
        "Histogram of prefill (context) phase duration in seconds (first_token_time - first_scheduled_time).",
        model,
        m.prefill);
    histogram(
        f,
        "trtllm_request_decode_time_seconds",
        "Histogram of decode (generation) phase duration in seconds (last_token_time - first_token_time).",
        model,
        m.decode);
    histogram(
        f,
        "trtllm_request_inference_time_seconds",
        "Histogram of total inference duration in seconds (last_token_time - first_scheduled_time).",
        model,
        m.inference);
    histogram(
        f,
        "trtllm_prompt_cached_tokens_per_request",
        "Histogram of cached prompt tokens per request.",
        model,
        m.cachedPerRequest);
    histogram(
        f,
        "trtllm_prefill_batch_tokens",
        "Histogram of total context tokens per iteration.",
        model,
        m.prefillBatchTokens);
  }

  private static void counters(PythonFamilies f, String[] model, TrtllmMetrics m) {
    // created at start-up (counter_tokens_cached_prompt.labels(**self.labels) in __init__)
    f.counter(
        "trtllm_prompt_cached_tokens",
        "Process-lifetime total prompt tokens served from KV cache. Resets only when the serving"
            + " process restarts, not when the KV cache is flushed or evicted.",
        one(model, m.cachedTokens));
    success(f, model, m);
    List<Child> errors = new ArrayList<>();
    for (Map.Entry<String, Long> e : m.errors.entrySet()) {
      errors.add(new Child(with(model, "http_code", e.getKey()), e.getValue(), 0));
    }
    f.counter("trtllm_request_error", "Total request errors, labeled by HTTP status code.", errors);
    boolean served = m.completed > 0;
    f.counter(
        "trtllm_prompt_tokens",
        "Cumulative number of prompt (input) tokens processed.",
        served ? one(model, m.promptTokens) : List.of());
    f.counter(
        "trtllm_generation_tokens",
        "Cumulative number of generation (output) tokens produced.",
        served ? one(model, m.generationTokens) : List.of());
    f.counter(
        "trtllm_num_requests_completed",
        "Total number of completed requests across iterations",
        served ? one(model, m.completed) : List.of());
    f.counter(
        "trtllm_kv_cache_reused_blocks",
        "Cumulative number of KV cache blocks reused (cache hits)",
        m.reusedBlocks > 0 ? one(model, Math.floor(m.reusedBlocks)) : List.of());
    f.counter(
        "trtllm_kv_cache_missed_blocks",
        "Cumulative number of KV cache blocks missed (cache misses)",
        m.missedBlocks > 0 ? one(model, Math.floor(m.missedBlocks)) : List.of());
  }

  private static void gauges(
      PythonFamilies f, String[] labels, View v, TrtllmMetrics m, EngineState s) {
    f.gauge("trtllm_num_requests_running", "Number of active requests", one(labels, s.running()));
    f.gauge("trtllm_num_requests_waiting", "Number of queued requests", one(labels, s.waiting()));
    f.gauge(
        "trtllm_max_num_active_requests",
        "Maximum number of active requests",
        one(labels, v.maxBatchSize()));
    f.gauge(
        "trtllm_iteration_latency_seconds",
        "Iteration latency in seconds",
        one(labels, m.lastIterationSeconds));
    f.gauge(
        "trtllm_max_batch_size_static", "Static maximum batch size", one(labels, v.maxBatchSize()));
    f.gauge(
        "trtllm_max_batch_size_runtime",
        "Runtime maximum batch size",
        one(labels, v.maxBatchSize()));
    f.gauge(
        "trtllm_max_num_tokens_runtime",
        "Runtime maximum number of tokens",
        one(labels, v.maxNumTokens()));
    double lookedUp = m.reusedBlocks + m.missedBlocks;
    f.gauge(
        "trtllm_kv_cache_hit_rate",
        "KV cache hit rate",
        one(labels, lookedUp > 0 ? Math.floor(m.reusedBlocks) / Math.floor(lookedUp) : 0.0));
    f.gauge("trtllm_kv_cache_utilization", "KV cache utilization", one(labels, s.kvUsage()));
    f.gauge(
        "trtllm_kv_cache_max_blocks",
        "Maximum number of KV cache blocks",
        one(labels, s.totalBlocks()));
    f.gauge(
        "trtllm_kv_cache_free_blocks",
        "Number of free KV cache blocks",
        one(labels, s.totalBlocks() - s.usedBlocks()));
    f.gauge(
        "trtllm_kv_cache_used_blocks",
        "Number of used KV cache blocks",
        one(labels, s.usedBlocks()));
    f.gauge(
        "trtllm_kv_cache_tokens_per_block",
        "Number of tokens per KV cache block",
        one(labels, s.blockSize()));
    f.gauge("trtllm_num_paused_requests", "Number of paused requests", one(labels, 0));
    f.gauge(
        "trtllm_num_scheduled_requests", "Number of scheduled requests", one(labels, s.running()));
    f.gauge(
        "trtllm_total_context_tokens",
        "Total number of context tokens",
        one(labels, m.lastContextTokens));
  }

  private static void histogram(
      PythonFamilies f, String base, String help, String[] labels, Histogram h) {
    f.histogram(base, help, h.count() > 0 ? List.of(new HistogramChild(labels, h, 0)) : List.of());
  }

  private static List<Child> one(String[] labels, double value) {
    return List.of(new Child(labels, value, 0));
  }

  private static String[] with(String[] labels, String name, String value) {
    String[] out = java.util.Arrays.copyOf(labels, labels.length + 2);
    out[labels.length] = name;
    out[labels.length + 1] = value;
    return out;
  }
}
