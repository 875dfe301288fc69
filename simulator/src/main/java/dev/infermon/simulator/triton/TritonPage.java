package dev.infermon.simulator.triton;

import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PromText;
import java.util.List;

/**
 * The {@code :8002/metrics} page of one Triton server running the tensorrtllm backend's sample
 * repository. Triton's families, their HELP texts and their order are its metrics registry's
 * (triton-inference-server/core {@code src/metrics.cc}; metrics.md at 067c1e96): one series per
 * Triton model ({@code ensemble}, {@code postprocessing}, {@code preprocessing}, {@code
 * tensorrt_llm_bls}, {@code tensorrt_llm}, in the order of the page quoted in
 * triton-inference-server/tensorrtllm_backend#667), failures split by {@code reason} (the pages in
 * triton-inference-server/server#8561 and #7583). The backend's families follow, in the order
 * {@code CustomMetricsReporter::InitializeReporter} creates them (NVIDIA/TensorRT-LLM {@code
 * triton_backend/inflight_batcher_llm/src/custom_metrics_reporter/custom_metrics_reporter.cc} at
 * 0d5352f5), each child created at model load (so 0 before the first iteration), labels sorted by
 * name as the backend README's sample page shows them, children in that sample's order. Counters
 * carry no {@code _total}; a histogram writes {@code _count}, {@code _sum}, then its buckets with
 * {@code le} last among the labels (prometheus-cpp's {@code text_serializer.cc}). The server runs
 * with {@code --allow-gpu-metrics=false} (dcgm-exporter watches the GPUs), so no {@code nv_gpu_*}
 * family; families without a child are left out (judgement: the sources do not show an empty one on
 * a current release). Stateless.
 */
public final class TritonPage {
  /** The Triton model the backend's families and the request signals name. */
  public static final String BACKEND_MODEL = "tensorrt_llm";

  /** Triton's models in the sample repository, in the order #667's page lists them. */
  static final List<String> MODELS =
      List.of("ensemble", "postprocessing", "preprocessing", "tensorrt_llm_bls", BACKEND_MODEL);

  /** The failure reasons, in the order server#8561's page lists them. */
  static final List<String> REASONS = List.of("OTHER", "BACKEND", "CANCELED", "REJECTED");

  /** Simulated per-request time of the tokenizing models, microseconds. */
  private static final double PRE_US = 1_500;

  private static final double POST_US = 800;

  /** Simulated per-request time in Triton's own input and output handling, microseconds. */
  private static final double IO_US = 20;

  private TritonPage() {}

  /**
   * What the page shows.
   *
   * @param maxBatchSize the executor's Max Request Count
   * @param runtimeGpuBytes the runtime's GPU memory (activations, not weights)
   * @param cpuMemoryTotal the node's RAM
   * @param metrics what the server and the backend counted
   */
  public record View(
      int maxBatchSize, long runtimeGpuBytes, long cpuMemoryTotal, TritonMetrics metrics) {}

  /** Renders the page at the metrics' current state. */
  public static String render(View v) {
    TritonMetrics m = v.metrics();
    PromText out = new PromText(16 * 1024);
    requestCounters(out, m);
    durations(out, m);
    perModel(
        out,
        "nv_inference_pending_request_count",
        "Instantaneous number of pending requests awaiting execution per-model.",
        "gauge",
        new double[MODELS.size()]);
    EngineState s = m.state();
    double kv = s == null ? 0 : s.kvUsage();
    out.family("nv_cpu_utilization", "CPU utilization rate [0.0 - 1.0]", "gauge");
    out.sample("nv_cpu_utilization", new String[0], TritonFloat.format(0.05 + 0.1 * kv));
    out.family("nv_cpu_memory_total_bytes", "CPU total memory (RAM), in bytes", "gauge");
    out.sample("nv_cpu_memory_total_bytes", new String[0], TritonFloat.format(v.cpuMemoryTotal()));
    out.family("nv_cpu_memory_used_bytes", "CPU used memory (RAM), in bytes", "gauge");
    out.sample(
        "nv_cpu_memory_used_bytes",
        new String[0],
        TritonFloat.format(Math.floor(v.cpuMemoryTotal() * (0.2 + 0.05 * kv))));
    backend(out, v, m, s);
    return out.toString();
  }

  private static void requestCounters(PromText out, TritonMetrics m) {
    long failed = m.failures();
    // preprocessing ran for every request; the ensemble and postprocessing for the answered ones
    perModel(
        out,
        "nv_inference_request_success",
        "Number of successful inference requests, all batch sizes",
        "counter",
        byModel(m.success, m.success, m.success + failed, 0, m.success));
    out.family(
        "nv_inference_request_failure",
        "Number of failed inference requests, all batch sizes",
        "counter");
    for (String model : MODELS) {
      boolean failing = model.equals("ensemble") || model.equals(BACKEND_MODEL);
      for (String reason : REASONS) {
        double n = 0;
        if (failing && reason.equals("BACKEND")) {
          n = m.backendFailures;
        } else if (failing && reason.equals("CANCELED")) {
          n = m.canceled;
        }
        out.sample(
            "nv_inference_request_failure",
            new String[] {"model", model, "reason", reason, "version", "1"},
            TritonFloat.format(n));
      }
    }
    double[] answered = byModel(m.success, m.success, m.success + failed, 0, m.success);
    perModel(
        out,
        "nv_inference_count",
        "Number of inferences performed (does not include cached requests)",
        "counter",
        answered);
    perModel(
        out,
        "nv_inference_exec_count",
        "Number of model executions performed (does not include cached requests)",
        "counter",
        answered);
  }

  private static void durations(PromText out, TritonMetrics m) {
    double n = m.success;
    double pre = (n + m.failures()) * PRE_US;
    double post = n * POST_US;
    double io = n * IO_US;
    perModel(
        out,
        "nv_inference_request_duration_us",
        "Cumulative inference request duration in microseconds (includes cached requests)",
        "counter",
        byModel(m.requestMicros + pre + post, post, pre, 0, m.requestMicros));
    // Triton hands each request to the backend at once: the executor queues, not Triton
    perModel(
        out,
        "nv_inference_queue_duration_us",
        "Cumulative inference queuing duration in microseconds (includes cached requests)",
        "counter",
        byModel(4 * io, io, io, 0, io));
    perModel(
        out,
        "nv_inference_compute_input_duration_us",
        "Cumulative compute input duration in microseconds (does not include cached requests)",
        "counter",
        byModel(3 * io, io, io, 0, io));
    perModel(
        out,
        "nv_inference_compute_infer_duration_us",
        "Cumulative compute inference duration in microseconds (does not include cached requests)",
        "counter",
        byModel(m.inferMicros + pre + post, post, pre, 0, m.inferMicros));
    perModel(
        out,
        "nv_inference_compute_output_duration_us",
        "Cumulative inference compute output duration in microseconds (does not include cached"
            + " requests)",
        "counter",
        byModel(3 * io, io, io, 0, io));
  }

  /** Values in {@link #MODELS}' order. */
  private static double[] byModel(
      double ensemble, double post, double pre, double bls, double trtllm) {
    return new double[] {ensemble, post, pre, bls, trtllm};
  }

  private static void perModel(
      PromText out, String name, String help, String type, double[] values) {
    out.family(name, help, type);
    for (int i = 0; i < MODELS.size(); i++) {
      out.sample(
          name,
          new String[] {"model", MODELS.get(i), "version", "1"},
          TritonFloat.format(values[i]));
    }
  }

  private static void backend(PromText out, View v, TritonMetrics m, EngineState s) {
    int running = s == null ? 0 : s.running();
    group(
        out,
        "nv_trt_llm_request_metrics",
        "TRT LLM request metrics",
        "gauge",
        "request_type",
        new String[] {"waiting", "context", "scheduled", "max", "active"},
        new double[] {
          s == null ? 0 : s.waiting(), m.lastContextRequests, running, v.maxBatchSize(), running
        });
    group(
        out,
        "nv_trt_llm_runtime_memory_metrics",
        "TRT LLM runtime memory metrics",
        "gauge",
        "memory_type",
        new String[] {"pinned", "gpu", "cpu"},
        new double[] {v.runtimeGpuBytes() / 12.0, v.runtimeGpuBytes(), 68_172});
    int total = s == null ? 0 : s.totalBlocks();
    int used = s == null ? 0 : s.usedBlocks();
    group(
        out,
        "nv_trt_llm_kv_cache_block_metrics",
        "TRT LLM KV cache block metrics",
        "gauge",
        "kv_cache_block_type",
        new String[] {"fraction", "reused", "tokens_per", "used", "free", "max"},
        new double[] {
          total == 0 ? 0 : (double) used / total,
          Math.floor(m.reusedBlocks),
          s == null ? 0 : s.blockSize(),
          used,
          total - used,
          total
        });
    // aggregated serving: the disaggregated-serving counters stay 0
    group(
        out,
        "nv_trt_llm_disaggregated_serving_metrics",
        "TRT LLM disaggregated serving metrics",
        "counter",
        "disaggregated_serving_type",
        new String[] {"kv_cache_transfer_ms", "request_count"},
        new double[] {0, 0});
    group(
        out,
        "nv_trt_llm_inflight_batcher_metrics",
        "TRT LLM inflight_batcher-specific metrics",
        "gauge",
        "inflight_batcher_specific_metric",
        new String[] {
          "paused_requests", "micro_batch_id", "generation_requests", "total_context_tokens"
        },
        new double[] {0, 0, m.lastGenerationRequests, m.lastContextTokens});
    group(
        out,
        "nv_trt_llm_general_metrics",
        "General TRT LLM metrics",
        "gauge",
        "general_type",
        new String[] {"iteration_counter", "timestamp"},
        // the timestamp of the last statistics in microseconds (convertTimestampToMicroseconds)
        new double[] {m.iterations, Math.floor(m.lastIterationEpoch * 1e6)});
    histogram(out, "nv_llm_output_token_len", "total_output_tokens", m.outputTokenLen);
    histogram(out, "nv_llm_input_token_len", "total_input_tokens", m.inputTokenLen);
  }

  private static void group(
      PromText out,
      String name,
      String help,
      String type,
      String category,
      String[] children,
      double[] values) {
    out.family(name, help, type);
    for (int i = 0; i < children.length; i++) {
      out.sample(
          name,
          sorted("model", BACKEND_MODEL, "version", "1", category, children[i]),
          TritonFloat.format(values[i]));
    }
  }

  private static void histogram(PromText out, String name, String type, Histogram h) {
    out.family(name, "TRT LLM response metrics", "histogram");
    String[] labels = {"model", BACKEND_MODEL, "response_metric_type", type, "version", "1"};
    out.sample(name + "_count", labels, Long.toString(h.count()));
    out.sample(name + "_sum", labels, TritonFloat.format(h.sum()));
    for (int i = 0; i <= h.size(); i++) {
      String le = i == h.size() ? "+Inf" : TritonFloat.format(h.bound(i));
      out.sample(
          name + "_bucket",
          new String[] {
            "model", BACKEND_MODEL, "response_metric_type", type, "version", "1", "le", le
          },
          Long.toString(h.cumulative(i)));
    }
  }

  /** Label pairs sorted by name: the registry keeps a child's labels in a sorted map. */
  private static String[] sorted(String... pairs) {
    java.util.TreeMap<String, String> m = new java.util.TreeMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    String[] out = new String[pairs.length];
    int i = 0;
    for (java.util.Map.Entry<String, String> e : m.entrySet()) {
      out[i++] = e.getKey();
      out[i++] = e.getValue();
    }
    return out;
  }
}
