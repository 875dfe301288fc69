package dev.infermon.simulator.nim;

import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PromText;
import dev.infermon.simulator.text.PythonFamilies;
import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonFamilies.HistogramChild;
import dev.infermon.simulator.text.PythonProcess;
import dev.infermon.simulator.vllm.VllmMetrics;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code /v1/metrics} page of one NIM for LLMs server, in the layout of the 2024-10 capture
 * (simulator/src/test/resources/captures/nim/nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt):
 * prometheus_client's default collectors, then NIM's subset of vLLM's V0 families without prefix,
 * {@code model_name} only, no {@code _created} series, labels sorted by name ({@code le} before
 * {@code model_name}), each histogram's buckets, {@code _count}, {@code _sum}, and no newline after
 * the last sample.
 *
 * <p>The request counters follow the catalog's reading of NIM (vllm.yaml's unprefixed variant):
 * {@code request_finish_total} is vLLM V0's {@code request_success_total} renamed, the requests the
 * engine finished by {@code stop} or {@code length} (V0's only reasons; each child created on first
 * use); NIM's own {@code request_success_total} counts the same requests, {@code model_name} only;
 * {@code request_failure_total} counts the requests that failed (the simulated engine's aborted and
 * failed ones), beside {@code request_finish_total}, not in it. So at every scrape finished
 * requests = finish + failure and success = finish (the capture: 5 = 5 + 0).
 */
public final class NimPage {
  private NimPage() {}

  /** The finish reasons V0 counts ({@code request_finish_total}'s children), in its order. */
  static final String[] SUCCESS_REASONS = {"stop", "length"};

  /**
   * What the page shows.
   *
   * @param modelName the served model ({@code model_name})
   * @param metrics what the engine counted
   * @param state its scheduler now
   * @param maxRequests {@code num_request_max}: the batch cap
   * @param startEpoch when the server (re)started, epoch seconds
   * @param now the page's time, epoch seconds
   */
  public record View(
      String modelName,
      VllmMetrics metrics,
      EngineState state,
      int maxRequests,
      double startEpoch,
      double now) {
    /** Validates. */
    public View {
      if (!metrics.isV0()) {
        throw new IllegalArgumentException("NIM's page reads a V0 engine's counters");
      }
    }
  }

  /** Requests finished by stop or length ({@code request_success_total}). */
  public static long succeeded(VllmMetrics m) {
    return m.finished("stop") + m.finished("length");
  }

  /** Requests that failed: aborted or errored ({@code request_failure_total}). */
  public static long failed(VllmMetrics m) {
    return m.finished("abort") + m.finished("error");
  }

  /** Renders the page as NIM would at {@code view.now()}. */
  public static String render(View v) {
    PromText out = new PromText(16 * 1024);
    PythonFamilies f = new PythonFamilies(out, false, false);
    // the capture's process: CPython 3.10.12, ~10 GB resident, ~116 GB virtual, 1048576 fds
    new PythonProcess(
            "3.10.12", v.startEpoch(), v.now(), 1.0463768576e10, 1.15891634176e11, 1048576)
        .write(out);
    VllmMetrics m = v.metrics();
    EngineState s = v.state();
    String[] model = {"model_name", v.modelName()};
    gauge(
        f,
        "num_requests_running",
        "Number of requests currently running on GPU.",
        model,
        s.running());
    gauge(
        f,
        "num_requests_waiting",
        "Number of requests waiting to be processed.",
        model,
        s.waiting());
    gauge(
        f,
        "num_request_max",
        "Max number of concurrently running requests.",
        model,
        v.maxRequests());
    gauge(
        f,
        "gpu_cache_usage_perc",
        "GPU KV-cache usage. 1 means 100 percent usage.",
        model,
        s.kvUsage());
    counter(f, "prompt_tokens", "Number of prefill tokens processed.", model, m.promptTokens());
    counter(
        f,
        "generation_tokens",
        "Number of generation tokens processed.",
        model,
        m.generationTokens());
    histogram(
        f,
        "time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        model,
        m.ttft());
    histogram(
        f,
        "time_per_output_token_seconds",
        "Histogram of time per output token in seconds.",
        model,
        m.timePerOutputToken());
    histogram(
        f,
        "e2e_request_latency_seconds",
        "Histogram of end to end request latency in seconds.",
        model,
        m.e2eLatency());
    histogram(
        f,
        "request_prompt_tokens",
        "Number of prefill tokens processed.",
        model,
        m.requestPromptTokens());
    histogram(
        f,
        "request_generation_tokens",
        "Number of generation tokens processed.",
        model,
        m.requestGenerationTokens());
    List<Child> finish = new ArrayList<>();
    for (String r : SUCCESS_REASONS) {
      reason(finish, r, m.finished(r), v.modelName());
    }
    f.counter(
        "request_finish",
        "Count of finished requests, differentiated by finish reason as label.",
        finish);
    counter(f, "request_success", "Count of successful requests.", model, succeeded(m));
    counter(f, "request_failure", "Count of failed requests.", model, failed(m));
    // the capture ends with its last sample: no newline after it
    String page = out.toString();
    return page.substring(0, page.length() - 1);
  }

  private static void reason(List<Child> out, String reason, long count, String model) {
    if (count > 0) {
      out.add(new Child(new String[] {"finished_reason", reason, "model_name", model}, count, 0));
    }
  }

  private static void gauge(
      PythonFamilies f, String name, String help, String[] labels, double value) {
    f.gauge(name, help, List.of(new Child(labels, value, 0)));
  }

  private static void counter(
      PythonFamilies f, String base, String help, String[] labels, double value) {
    f.counter(base, help, List.of(new Child(labels, value, 0)));
  }

  private static void histogram(
      PythonFamilies f, String base, String help, String[] labels, Histogram h) {
    f.histogram(base, help, List.of(new HistogramChild(labels, h, 0)));
  }
}
