package dev.infermon.simulator.vllm;

import dev.infermon.simulator.model.EngineParams;
import dev.infermon.simulator.text.Families;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonFamilies.HistogramChild;
import java.util.ArrayList;
import java.util.List;

/**
 * The V0 page of vLLM 0.4.3 ({@code vllm-0.4.3.txt}): {@code model_name} only, no {@code _created}
 * families ({@code disable_created_metrics()}), swapped requests and CPU cache usage (both 0 here),
 * throughput gauges averaged over the 5 s log interval, and {@code request_success} children
 * created on first use for {@code stop} and {@code length} only. Stateless.
 */
final class VllmV0Page {
  private VllmV0Page() {}

  static void render(VllmPage.View v, Families f) {
    VllmPage.Engine e = v.engines().get(0);
    VllmMetrics m = e.metrics();
    EngineParams p = v.params();
    String[] model = {"model_name", v.modelName()};
    f.gauge(
        "vllm:cache_config_info",
        "information of cache_config",
        List.of(
            new Child(
                new String[] {
                  "block_size", Integer.toString(p.blockSize()),
                  "cache_dtype", "auto",
                  "cpu_kvcache_space_bytes", "4294967296",
                  "enable_prefix_caching", "False",
                  "gpu_memory_utilization", "0.9",
                  "num_cpu_blocks", "0",
                  "num_gpu_blocks", Integer.toString(p.numGpuBlocks()),
                  "num_gpu_blocks_override", "None",
                  "sliding_window", "None",
                  "swap_space_bytes", "4294967296"
                },
                1,
                0)));
    gaugeV0(
        f,
        "vllm:num_requests_running",
        "Number of requests currently running on GPU.",
        model,
        e.state().running());
    gaugeV0(
        f,
        "vllm:num_requests_waiting",
        "Number of requests waiting to be processed.",
        model,
        e.state().waiting());
    gaugeV0(f, "vllm:num_requests_swapped", "Number of requests swapped to CPU.", model, 0);
    gaugeV0(
        f,
        "vllm:gpu_cache_usage_perc",
        "GPU KV-cache usage. 1 means 100 percent usage.",
        model,
        e.state().kvUsage());
    gaugeV0(
        f, "vllm:cpu_cache_usage_perc", "CPU KV-cache usage. 1 means 100 percent usage.", model, 0);
    counterV0(
        f,
        "vllm:num_preemptions",
        "Cumulative number of preemption from the engine.",
        model,
        m.preemptions);
    counterV0(
        f, "vllm:prompt_tokens", "Number of prefill tokens processed.", model, m.promptTokens);
    counterV0(
        f,
        "vllm:generation_tokens",
        "Number of generation tokens processed.",
        model,
        m.generationTokens);
    histogramV0(
        f,
        "vllm:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        model,
        m.ttft);
    histogramV0(
        f,
        "vllm:time_per_output_token_seconds",
        "Histogram of time per output token in seconds.",
        model,
        m.v0Tpot);
    histogramV0(
        f,
        "vllm:e2e_request_latency_seconds",
        "Histogram of end to end request latency in seconds.",
        model,
        m.e2e);
    histogramV0(
        f,
        "vllm:request_prompt_tokens",
        "Number of prefill tokens processed.",
        model,
        m.requestPromptTokens);
    histogramV0(
        f,
        "vllm:request_generation_tokens",
        "Number of generation tokens processed.",
        model,
        m.requestGenerationTokens);
    histogramV0(
        f,
        "vllm:request_params_best_of",
        "Histogram of the best_of request parameter.",
        model,
        m.paramsN);
    histogramV0(
        f, "vllm:request_params_n", "Histogram of the n request parameter.", model, m.paramsN);
    // V0 creates a finished_reason child on first use and counts only stop and length
    List<Child> success = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      if (m.finished[r] > 0) {
        success.add(
            new Child(
                new String[] {
                  "finished_reason", VllmMetrics.FINISHED_REASONS[r], "model_name", v.modelName()
                },
                m.finished[r],
                0));
      }
    }
    f.counter("vllm:request_success", "Count of successfully processed requests.", success);
    gaugeV0(
        f,
        "vllm:avg_prompt_throughput_toks_per_s",
        "Average prefill throughput in tokens/s.",
        model,
        m.avgPromptThroughput);
    gaugeV0(
        f,
        "vllm:avg_generation_throughput_toks_per_s",
        "Average generation throughput in tokens/s.",
        model,
        m.avgGenerationThroughput);
  }

  private static void gaugeV0(Families f, String name, String help, String[] labels, double value) {
    f.gauge(name, help, List.of(new Child(labels, value, 0)));
  }

  private static void counterV0(
      Families f, String base, String help, String[] labels, double value) {
    f.counter(base, help, List.of(new Child(labels, value, 0)));
  }

  private static void histogramV0(
      Families f, String base, String help, String[] labels, Histogram h) {
    f.histogram(base, help, List.of(new HistogramChild(labels, h, 0)));
  }
}
