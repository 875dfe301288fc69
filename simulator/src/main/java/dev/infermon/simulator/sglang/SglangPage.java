package dev.infermon.simulator.sglang;

import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PromText;
import dev.infermon.simulator.text.PythonFamilies;
import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonFamilies.HistogramChild;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code /metrics} page of one SGLang server, of the 0.5.9 or the 0.5.11 line ({@link
 * SglangRelease}). Names, HELP texts and buckets are those of {@code
 * python/sglang/srt/metrics/collector.py} at 00ae9c1 (≈v0.5.9), and for the families 0.5.11 added
 * those of {@code python/sglang/srt/observability/metrics_collector.py} at 016d8605; the layout is
 * prometheus_client's multiprocess collector (what SGLang serves): no {@code _created}, labels
 * sorted, each histogram child its {@code _sum} before its buckets and {@code _count}, and a family
 * only once a child exists. Tokenizer metrics carry {@code model_name}; scheduler metrics carry
 * {@code engine_type}, {@code model_name}, {@code moe_ep_rank}, {@code pp_rank}, {@code tp_rank},
 * repeated per TP rank when every scheduler reports (the same batch seen by each rank: never sum
 * over {@code tp_rank}); the two gauges without a multiprocess mode also get a {@code pid} label.
 * Stateless.
 */
public final class SglangPage {
  private SglangPage() {}

  /**
   * What the page shows.
   *
   * @param modelName the served model name
   * @param engineType {@code unified}, {@code prefill} or {@code decode}
   * @param tpSize tensor-parallel ranks that report scheduler metrics
   * @param firstPid the process id of TP rank 0's scheduler (the others follow)
   * @param metrics what the server counted
   * @param release the release line whose families the page has
   * @param contextLen the model's context length (0.5.11's {@code context_len} gauge)
   */
  public record View(
      String modelName,
      String engineType,
      int tpSize,
      int firstPid,
      SglangMetrics metrics,
      SglangRelease release,
      int contextLen) {
    /** A 0.5.9 page (no {@code context_len}). */
    public View(
        String modelName, String engineType, int tpSize, int firstPid, SglangMetrics metrics) {
      this(modelName, engineType, tpSize, firstPid, metrics, SglangRelease.V0_5_9, 1);
    }

    /** Validates. */
    public View {
      if (release == null) {
        throw new IllegalArgumentException("release must not be null");
      }
      if (contextLen < 1) {
        throw new IllegalArgumentException("contextLen must be >= 1, got " + contextLen);
      }
      if (tpSize < 1) {
        throw new IllegalArgumentException("tpSize must be >= 1, got " + tpSize);
      }
      if (!engineType.equals("unified")
          && !engineType.equals("prefill")
          && !engineType.equals("decode")) {
        throw new IllegalArgumentException("unknown engine_type: \"" + engineType + "\"");
      }
    }
  }

  private static final String TOTAL_TOKENS_HELP =
      "Total number of tokens processed (updated on each log interval). "
          + "mode: prefill_compute, prefill_cache, decode.";

  /** Renders the page at the metrics' current state. */
  public static String render(View v) {
    SglangMetrics m = v.metrics();
    PromText out = new PromText(24 * 1024 * (1 + v.tpSize()));
    PythonFamilies f = new PythonFamilies(out, true, false);
    // 0.5.11 labels the tokenizer's series with engine_type too (#23978), sorted first
    String[] tokenizer =
        v.release().atLeast0511()
            ? new String[] {"engine_type", v.engineType(), "model_name", v.modelName()}
            : new String[] {"model_name", v.modelName()};
    boolean served = m.numRequests > 0;

    f.counter(
        "sglang:prompt_tokens",
        "Number of prefill tokens processed.",
        served ? one(tokenizer, m.promptTokens) : List.of());
    f.counter(
        "sglang:generation_tokens",
        "Number of generation tokens processed.",
        served ? one(tokenizer, m.generationTokens) : List.of());
    f.counter(
        "sglang:cached_tokens",
        "Number of cached prompt tokens.",
        m.cachedTokens > 0 ? one(tokenizer, m.cachedTokens) : List.of());
    f.counter(
        "sglang:num_requests",
        "Number of requests processed.",
        served ? one(tokenizer, m.numRequests) : List.of());
    f.counter(
        "sglang:num_aborted_requests",
        "Number of requests aborted.",
        m.numAborted > 0 ? one(tokenizer, m.numAborted) : List.of());

    histogram(
        f,
        "sglang:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        tokenizer,
        m.ttft);
    histogram(
        f,
        "sglang:e2e_request_latency_seconds",
        "Histogram of End-to-end request latency in seconds",
        tokenizer,
        m.e2e);
    histogram(
        f,
        "sglang:inter_token_latency_seconds",
        "Histogram of inter-token latency in seconds.",
        tokenizer,
        m.itl);
    if (!v.release().atLeast0511()) {
      histogram(
          f,
          "sglang:num_retractions",
          "Histogram of retraction counts per request.",
          tokenizer,
          m.retractions); // removed in 0.5.11
    }
    histogram(
        f,
        "sglang:prompt_tokens_histogram",
        "Histogram of prompt token length.",
        tokenizer,
        m.promptLengths);
    histogram(
        f,
        "sglang:generation_tokens_histogram",
        "Histogram of generation token length.",
        tokenizer,
        m.generationLengths);

    List<String[]> ranks = new ArrayList<>();
    for (int tp = 0; tp < v.tpSize(); tp++) {
      ranks.add(
          new String[] {
            "engine_type", v.engineType(),
            "model_name", v.modelName(),
            "moe_ep_rank", "0",
            "pp_rank", "0",
            "tp_rank", Integer.toString(tp)
          });
    }
    List<HistogramChild> queue = new ArrayList<>();
    if (m.queueTime.count() > 0) {
      for (String[] r : ranks) {
        queue.add(new HistogramChild(r, m.queueTime, 0));
      }
    }
    f.histogram("sglang:queue_time_seconds", "Histogram of queueing time in seconds.", queue);
    List<HistogramChild> stages = new ArrayList<>();
    if (m.prefillForward.count() > 0) {
      for (String[] r : ranks) {
        stages.add(new HistogramChild(with(r, "stage", "prefill_forward"), m.prefillForward, 0));
      }
    }
    f.histogram(
        "sglang:per_stage_req_latency_seconds", "The latency of each stage of requests.", stages);

    if (m.lastLogged()) {
      schedulerGauges(f, v, ranks);
      List<Child> realtime = new ArrayList<>();
      for (String[] r : ranks) {
        realtime.add(new Child(with(r, "mode", "prefill_compute"), m.realtimePrefillCompute, 0));
        realtime.add(new Child(with(r, "mode", "prefill_cache"), m.realtimePrefillCache, 0));
        realtime.add(new Child(with(r, "mode", "decode"), m.realtimeDecode, 0));
      }
      f.counter("sglang:realtime_tokens", TOTAL_TOKENS_HELP, realtime);
    }
    if (m.decodeCudaGraphPasses > 0) {
      List<Child> passes = new ArrayList<>();
      for (String[] r : ranks) {
        passes.add(new Child(with(r, "mode", "decode_cuda_graph"), m.decodeCudaGraphPasses, 0));
      }
      f.counter(
          "sglang:cuda_graph_passes",
          "Total number of forward passes categorized by CUDA graph.",
          passes);
    }
    if (m.retractedRequests > 0) {
      f.counter(
          "sglang:num_retracted_requests",
          "Total number of retracted requests.",
          perRank(ranks, m.retractedRequests));
      f.counter(
          "sglang:num_retracted_input_tokens",
          "Total number of retracted input tokens.",
          perRank(ranks, m.retractedInputTokens));
      f.counter(
          "sglang:num_retracted_output_tokens",
          "Total number of retracted output tokens.",
          perRank(ranks, m.retractedOutputTokens));
    }
    return out.toString();
  }

  private static void schedulerGauges(PythonFamilies f, View v, List<String[]> ranks) {
    SglangMetrics.Gauges g = v.metrics().gauges();
    SglangMetrics m = v.metrics();
    gauge(f, ranks, "sglang:num_running_reqs", "The number of running requests.", g.running());
    gauge(f, ranks, "sglang:num_used_tokens", "The number of used tokens.", g.usedTokens());
    gauge(f, ranks, "sglang:token_usage", "The token usage.", g.tokenUsage());
    gauge(
        f,
        ranks,
        "sglang:pending_prealloc_token_usage",
        "The token usage for pending preallocated tokens (not preallocated yet).",
        0);
    gauge(f, ranks, "sglang:swa_token_usage", "The token usage for SWA layers.", 0);
    gauge(f, ranks, "sglang:mamba_usage", "The token usage for Mamba layers.", 0);
    gauge(
        f,
        ranks,
        "sglang:decode_sum_seq_lens",
        "The sum of all sequence lengths in decode.",
        g.decodeSumSeqLens());
    gauge(
        f,
        ranks,
        "sglang:gen_throughput",
        "The generation throughput (token/s).",
        g.genThroughput());
    gauge(
        f,
        ranks,
        "sglang:num_queue_reqs",
        "The number of requests in the waiting queue.",
        g.queue());
    gauge(
        f,
        ranks,
        "sglang:num_grammar_queue_reqs",
        "The number of requests in the grammar waiting queue.",
        0);
    gauge(
        f,
        ranks,
        "sglang:num_running_reqs_offline_batch",
        "The number of running low-priority offline batch requests(label is 'batch').",
        0);
    gauge(f, ranks, "sglang:cache_hit_rate", "The prefix cache hit rate.", g.cacheHitRate());
    gauge(
        f,
        ranks,
        "sglang:max_total_num_tokens",
        "Maximum total number of tokens in the KV cache pool.",
        g.maxTotalTokens());
    gauge(
        f,
        ranks,
        "sglang:spec_accept_length",
        "The average acceptance length of speculative decoding.",
        0);
    gauge(
        f,
        ranks,
        "sglang:spec_accept_rate",
        "The average acceptance rate of speculative decoding (`accepted tokens / total draft"
            + " tokens` in batch).",
        0);
    gauge(
        f,
        ranks,
        "sglang:num_prefill_prealloc_queue_reqs",
        "The number of requests in the prefill prealloc queue.",
        0);
    gauge(
        f,
        ranks,
        "sglang:num_prefill_inflight_queue_reqs",
        "The number of requests in the prefill inflight queue.",
        g.prefillInflight());
    gauge(
        f,
        ranks,
        "sglang:num_decode_prealloc_queue_reqs",
        "The number of requests in the decode prealloc queue.",
        g.decodePrealloc());
    gauge(
        f,
        ranks,
        "sglang:num_decode_transfer_queue_reqs",
        "The number of requests in the decode transfer queue.",
        g.decodeTransfer());
    boolean prefill = m.prefillSide();
    if (v.release().atLeast0511()) {
      kvTransferHistograms(f, ranks, m);
    } else {
      kvTransferGauges(f, ranks, g, prefill);
    }
    List<Child> retracted = new ArrayList<>();
    List<Child> paused = new ArrayList<>();
    for (int i = 0; i < ranks.size(); i++) {
      String[] withPid = with(ranks.get(i), "pid", Integer.toString(v.firstPid() + i));
      retracted.add(new Child(withPid, g.retracted(), 0));
      paused.add(new Child(withPid, 0, 0));
    }
    f.gauge("sglang:num_retracted_reqs", "The number of retracted requests.", retracted);
    f.gauge(
        "sglang:num_paused_reqs", "The number of paused requests by async weight sync.", paused);
    // PD prefill servers report -1; elsewhere the SLO setter is missing, so it reads 0
    gauge(f, ranks, "sglang:utilization", "The utilization.", prefill ? -1 : 0);
    gauge(
        f,
        ranks,
        "sglang:engine_startup_time",
        "The time taken for the engine to start up.",
        96.42);
    gauge(
        f,
        ranks,
        "sglang:engine_load_weights_time",
        "The time taken for the engine to load weights.",
        38.17);
    gauge(f, ranks, "sglang:new_token_ratio", "The new token ratio.", 0.7);
    gauge(
        f,
        ranks,
        "sglang:is_cuda_graph",
        "Whether the batch is using CUDA graph.",
        g.running() > 0 ? 1 : 0);
    gauge(
        f,
        ranks,
        "sglang:num_unique_running_routing_keys",
        "Number of unique routing keys in running batch.",
        0);
    if (m.loraEnabled()) {
      gauge(
          f,
          ranks,
          "sglang:lora_pool_slots_used",
          "Number of LoRA adapter slots currently occupied in GPU memory.",
          m.loraSlotsUsed());
      gauge(
          f,
          ranks,
          "sglang:lora_pool_slots_total",
          "Total number of LoRA adapter slots available (max_loras_per_batch).",
          m.loraSlotsTotal());
      gauge(
          f,
          ranks,
          "sglang:lora_pool_utilization",
          "LoRA pool utilization ratio (used/total). 1.0 means pool is full.",
          (double) m.loraSlotsUsed() / m.loraSlotsTotal());
    }
    if (v.release().atLeast0511()) {
      kvPoolGauges(f, v, ranks);
      return;
    }
    // 0.5.9-0.5.10: a work-around info gauge set to 1 at start-up, labelled only page_size and
    // num_pages (max_total_num_tokens // page_size), no model_name; every TP rank writes the same
    // child and multiprocess mode "mostrecent" keeps one
    f.gauge(
        "sglang:cache_config_info",
        "Cache configuration information.",
        List.of(
            new Child(
                new String[] {
                  "num_pages",
                  Long.toString(g.numPages()),
                  "page_size",
                  Integer.toString(g.pageSize())
                },
                1,
                0)));
  }

  /**
   * 0.5.11's full-pool gauges and constants, in place of cache_config_info: the absolute slots
   * (used + available + evictable ≤ max_total_num_tokens) and page_size, num_pages, context_len
   * with the scheduler labels. The simulated pool frees a finished request's pages at once (no
   * radix-cached pages linger), so none are evictable.
   */
  private static void kvPoolGauges(PythonFamilies f, View v, List<String[]> ranks) {
    SglangMetrics.Gauges g = v.metrics().gauges();
    long max = g.maxTotalTokens();
    gauge(
        f,
        ranks,
        "sglang:full_token_usage",
        "The token usage for full attention layers.",
        max == 0 ? 0 : (double) g.usedTokens() / max);
    gauge(
        f,
        ranks,
        "sglang:kv_available_tokens",
        "Number of free token slots in the KV cache pool.",
        Math.max(0, max - g.usedTokens()));
    gauge(
        f,
        ranks,
        "sglang:kv_evictable_tokens",
        "Number of evictable (radix-cached) token slots in the KV cache pool.",
        0);
    gauge(
        f,
        ranks,
        "sglang:kv_used_tokens",
        "Number of actively used token slots in the KV cache pool.",
        g.usedTokens());
    gauge(f, ranks, "sglang:page_size", "KV cache page size in tokens.", g.pageSize());
    gauge(f, ranks, "sglang:num_pages", "Number of KV cache pages.", g.numPages());
    gauge(f, ranks, "sglang:context_len", "Maximum context length.", v.contextLen());
  }

  /** Through 0.5.9: the last transfer's figures, as gauges every scheduler log writes. */
  private static void kvTransferGauges(
      PythonFamilies f, List<String[]> ranks, SglangMetrics.Gauges g, boolean prefill) {
    double mb = g.transferTotalMb();
    double speed = prefill && mb > 0 ? SglangMetrics.KV_SPEED_GB_S : 0;
    gauge(
        f,
        ranks,
        "sglang:kv_transfer_speed_gb_s",
        "The transfer speed of the KV cache in GB/s.",
        speed);
    gauge(
        f,
        ranks,
        "sglang:kv_transfer_latency_ms",
        "The transfer latency of the KV cache in ms.",
        speed > 0 ? mb / speed : 0);
    gauge(
        f,
        ranks,
        "sglang:kv_transfer_bootstrap_ms",
        "The bootstrap time of the KV transfer in ms.",
        prefill && mb > 0 ? SglangMetrics.KV_BOOTSTRAP_MS : 0);
    gauge(
        f,
        ranks,
        "sglang:kv_transfer_alloc_ms",
        "The allocation waiting time of the KV transfer in ms.",
        prefill && mb > 0 ? SglangMetrics.KV_ALLOC_MS : 0);
    gauge(
        f,
        ranks,
        "sglang:kv_transfer_total_mb",
        "The total number of tokens transferred in the KV cache.",
        mb);
  }

  /**
   * From 0.5.10: one observation per request the prefill side sent, so only a PD prefill server has
   * children (the family prints once one exists). HELP texts and buckets: metrics_collector.py at
   * 016d8605.
   */
  private static void kvTransferHistograms(
      PythonFamilies f, List<String[]> ranks, SglangMetrics m) {
    rankHistogram(
        f,
        ranks,
        "sglang:kv_transfer_speed_gb_s",
        "Histogram of KV cache transfer speed in GB/s.",
        m.kvTransferSpeed);
    rankHistogram(
        f,
        ranks,
        "sglang:kv_transfer_latency_ms",
        "Histogram of KV cache transfer latency in ms.",
        m.kvTransferLatencyMs);
    rankHistogram(
        f,
        ranks,
        "sglang:kv_transfer_bootstrap_ms",
        "Histogram of KV transfer bootstrap time in ms.",
        m.kvTransferBootstrapMs);
    rankHistogram(
        f,
        ranks,
        "sglang:kv_transfer_alloc_ms",
        "Histogram of KV transfer allocation waiting time in ms.",
        m.kvTransferAllocMs);
    rankHistogram(
        f,
        ranks,
        "sglang:kv_transfer_total_mb",
        "Histogram of KV cache transfer size in MB.",
        m.kvTransferTotalMb);
  }

  private static void rankHistogram(
      PythonFamilies f, List<String[]> ranks, String name, String help, Histogram h) {
    List<HistogramChild> children = new ArrayList<>();
    if (h.count() > 0) {
      for (String[] r : ranks) {
        children.add(new HistogramChild(r, h, 0));
      }
    }
    f.histogram(name, help, children);
  }

  private static void gauge(
      PythonFamilies f, List<String[]> ranks, String name, String help, double value) {
    f.gauge(name, help, perRank(ranks, value));
  }

  private static List<Child> perRank(List<String[]> ranks, double value) {
    List<Child> out = new ArrayList<>(ranks.size());
    for (String[] r : ranks) {
      out.add(new Child(r, value, 0));
    }
    return out;
  }

  private static void histogram(
      PythonFamilies f, String base, String help, String[] labels, Histogram h) {
    f.histogram(base, help, h.count() > 0 ? List.of(new HistogramChild(labels, h, 0)) : List.of());
  }

  private static List<Child> one(String[] labels, double value) {
    return List.of(new Child(labels, value, 0));
  }

  private static String[] with(String[] labels, String name, String value) {
    String[] out = Arrays.copyOf(labels, labels.length + 2);
    out[labels.length] = name;
    out[labels.length + 1] = value;
    return out;
  }
}
