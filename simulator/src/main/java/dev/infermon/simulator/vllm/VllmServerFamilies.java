package dev.infermon.simulator.vllm;

import dev.infermon.simulator.model.EngineParams;
import dev.infermon.simulator.text.Families;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PyFloat;
import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonFamilies.HistogramChild;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The families of a vLLM page that belong to the API server rather than to an engine core: {@code
 * vllm:cache_config_info} (one label per CacheConfig field, as each release spells them) and the
 * prometheus-fastapi-instrumentator's {@code http_*} families (process-wide, so the engines'
 * observations are merged). Stateless.
 */
final class VllmServerFamilies {
  private static final String HTTP_SIZE_TAIL =
      " Only value of header is respected. Otherwise ignored. No percentile calculated. ";

  private VllmServerFamilies() {}

  static void cacheConfigInfo(Families f, VllmPage.View v) {
    EngineParams p = v.params();
    List<Child> info = new ArrayList<>();
    for (VllmPage.Engine e : v.engines()) {
      String engine = Integer.toString(e.index());
      String blocks = Integer.toString(p.numGpuBlocks());
      String blockSize = Integer.toString(p.blockSize());
      String[] labels;
      if (v.release() == VllmRelease.V1_CURRENT) {
        long tokens = p.kvCapacityTokens();
        labels =
            new String[] {
              "_block_size_resolved", "True",
              "block_size", blockSize,
              "cache_dtype", "auto",
              "calculate_kv_scales", "False",
              "enable_prefix_caching", "True",
              "engine", engine,
              "gpu_memory_utilization", "0.9",
              "hash_block_size", "None",
              "is_attention_free", "False",
              "kv_cache_dtype_skip_layers", "[]",
              "kv_cache_max_concurrency", PyFloat.format((double) tokens / p.maxModelLen()),
              "kv_cache_memory_bytes", "None",
              "kv_cache_size_tokens", Long.toString(tokens),
              "kv_offloading_backend", "native",
              "kv_offloading_size", "None",
              "kv_sharing_fast_prefill", "False",
              "mamba_block_size", "None",
              "mamba_cache_dtype", "auto",
              "mamba_cache_mode", "none",
              "mamba_page_size_padded", "None",
              "mamba_ssm_cache_dtype", "auto",
              "num_cpu_blocks", "None",
              "num_gpu_blocks", blocks,
              "num_gpu_blocks_override", "None",
              "prefix_caching_hash_algo", "sha256",
              "skip_page_size_padded", "None",
              "sliding_window", "None",
              "user_specified_block_size", "False",
              "user_specified_mamba_block_size", "False"
            };
      } else {
        labels =
            new String[] {
              "block_size", blockSize,
              "cache_dtype", "auto",
              "calculate_kv_scales", "False",
              "cpu_kvcache_space_bytes", "None",
              "cpu_offload_gb", "0.0",
              "enable_prefix_caching", "True",
              "engine", engine,
              "gpu_memory_utilization", "0.9",
              "is_attention_free", "False",
              "kv_cache_memory_bytes", "None",
              "kv_sharing_fast_prefill", "False",
              "mamba_cache_dtype", "auto",
              "mamba_page_size_padded", "None",
              "mamba_ssm_cache_dtype", "auto",
              "num_cpu_blocks", "None",
              "num_gpu_blocks", blocks,
              "num_gpu_blocks_override", "None",
              "prefix_caching_hash_algo", "sha256",
              "sliding_window", "None",
              "swap_space", "4.0",
              "swap_space_bytes", "4294967296.0"
            };
      }
      info.add(new Child(labels, 1, 0));
    }
    f.gauge("vllm:cache_config_info", "Information of the LLMEngine CacheConfig", info);
  }

  static void http(Families f, VllmPage.View v, CreatedClock created) {
    long ok = 0;
    long failed = 0;
    double requestBytes = 0;
    double responseBytes = 0;
    Histogram highr = new Histogram(VllmBuckets.HTTP_HIGHR);
    Histogram chat = new Histogram(VllmBuckets.HTTP_BY_HANDLER);
    for (VllmPage.Engine e : v.engines()) {
      VllmMetrics m = e.metrics();
      ok += m.httpOk;
      failed += m.httpServerError;
      requestBytes += m.httpRequestBytes;
      responseBytes += m.httpResponseBytes;
    }
    // the API server's histograms are process-wide: merge the engines' observations
    Histogram mergedHighr = v.engines().size() == 1 ? v.engines().get(0).metrics().httpHighr : null;
    Histogram mergedChat = v.engines().size() == 1 ? v.engines().get(0).metrics().httpChat : null;
    if (mergedHighr == null) {
      mergedHighr = merge(highr, v.engines(), m -> m.httpHighr);
      mergedChat = merge(chat, v.engines(), m -> m.httpChat);
    }
    String[] chatLabels = {"handler", "/v1/chat/completions", "method", "POST"};
    List<Child> requests = new ArrayList<>();
    if (ok > 0) {
      requests.add(new Child(withStatus(chatLabels, "2xx"), ok, created.next()));
    }
    if (failed > 0) {
      requests.add(new Child(withStatus(chatLabels, "5xx"), failed, created.next()));
    }
    f.counter("http_requests", "Total number of requests by method, status and handler.", requests);
    boolean any = ok + failed > 0;
    String[] handler = {"handler", "/v1/chat/completions"};
    List<Child> counts = new ArrayList<>();
    List<Child> reqSums = new ArrayList<>();
    List<Child> respSums = new ArrayList<>();
    if (any) {
      double c = created.next();
      counts.add(new Child(handler, ok + failed, c));
      reqSums.add(new Child(handler, requestBytes, c));
      respSums.add(new Child(handler, responseBytes, c));
    }
    f.summary(
        "http_request_size_bytes",
        "Content length of incoming requests by handler." + HTTP_SIZE_TAIL,
        counts,
        reqSums);
    f.summary(
        "http_response_size_bytes",
        "Content length of outgoing responses by handler." + HTTP_SIZE_TAIL,
        counts,
        respSums);
    f.histogram(
        "http_request_duration_highr_seconds",
        "Latency with many buckets but no API specific labels. Made for more accurate percentile"
            + " calculations. ",
        List.of(new HistogramChild(new String[0], mergedHighr, v.startEpoch() + 0.61)));
    f.histogram(
        "http_request_duration_seconds",
        "Latency with only few buckets by handler. Made to be only used if aggregation by handler"
            + " is important. ",
        any ? List.of(new HistogramChild(chatLabels, mergedChat, created.next())) : List.of());
  }

  private static Histogram merge(
      Histogram into, List<VllmPage.Engine> engines, Function<VllmMetrics, Histogram> pick) {
    for (VllmPage.Engine e : engines) {
      into.add(pick.apply(e.metrics()));
    }
    return into;
  }

  private static String[] withStatus(String[] labels, String status) {
    String[] out = Arrays.copyOf(labels, labels.length + 2);
    out[labels.length] = "status";
    out[labels.length + 1] = status;
    return out;
  }
}
