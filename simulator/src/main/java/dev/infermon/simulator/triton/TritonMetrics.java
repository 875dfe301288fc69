package dev.infermon.simulator.triton;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.Histogram;
import java.util.function.Supplier;

/**
 * What one Triton server running the tensorrtllm backend's sample repository counts (an {@code
 * ensemble} of {@code preprocessing}, {@code tensorrt_llm} and {@code postprocessing}): Triton's
 * per-model request counters and cumulative microsecond durations (metrics.md, "Inference Request
 * Metrics"), and the backend's last iteration statistics, which its {@code CustomMetricsReporter}
 * sets as gauges (NVIDIA/TensorRT-LLM {@code triton_backend/.../custom_metrics_reporter.cc} at
 * 0d5352f5). A finished request counts once for every model of the ensemble; one the engine failed
 * is a {@code BACKEND} failure and one the client abandoned a {@code CANCELED} one (the reasons of
 * the pages quoted in triton-inference-server/server#8561 and #7583), never a success. Not
 * thread-safe.
 */
public final class TritonMetrics implements EngineListener {
  /** The token-length histograms' bounds (reporter @ 0d5352f5: 10, 50, 100, 500, 1000). */
  static final double[] TOKEN_LEN_BOUNDS = {10, 50, 100, 500, 1000};

  private Supplier<EngineState> state = () -> null;

  long success;
  long backendFailures;
  long canceled;
  double requestMicros;
  double inferMicros;
  double lastIterationEpoch;
  long iterations;
  int lastContextRequests;
  int lastContextTokens;
  int lastGenerationRequests;
  double reusedBlocks;
  final Histogram inputTokenLen = new Histogram(TOKEN_LEN_BOUNDS);
  final Histogram outputTokenLen = new Histogram(TOKEN_LEN_BOUNDS);

  /** Wires the engine whose state the backend's gauges read. */
  public void sampleStateFrom(Supplier<EngineState> source) {
    this.state = source;
  }

  EngineState state() {
    return state.get();
  }

  /** Requests every model of the ensemble answered ({@code nv_inference_request_success}). */
  public long success() {
    return success;
  }

  /** Requests the tensorrt_llm model failed, whatever the reason. */
  public long failures() {
    return backendFailures + canceled;
  }

  /** Iterations the executor ran ({@code general_type="iteration_counter"}). */
  public long iterations() {
    return iterations;
  }

  @Override
  public void onScheduled(Request r, double now, int queried, int hit) {
    // KvCacheStats.reusedBlocks: blocks a scheduled prompt found in the cache, since start-up
    EngineState s = state();
    int block = s == null || s.blockSize() == 0 ? 16 : s.blockSize();
    reusedBlocks += (double) hit / block;
  }

  @Override
  public void onIteration(
      double now, double duration, int steps, int prefillTokens, int decodeTokens, int batch) {
    iterations += steps;
    lastIterationEpoch = now;
    lastContextTokens = prefillTokens;
    // judgement: a batch with prefill tokens has one context request per 512 of them at least
    lastContextRequests = prefillTokens > 0 ? Math.min(batch, 1 + prefillTokens / 512) : 0;
    lastGenerationRequests = Math.max(0, batch - lastContextRequests);
    // the reporter observes the iteration statistics' Total Input / Output Tokens
    if (prefillTokens > 0) {
      inputTokenLen.observe(prefillTokens);
    }
    if (decodeTokens > 0) {
      outputTokenLen.observe(decodeTokens);
    }
  }

  @Override
  public void onPreempted(Request r, double now) {
    // the executor pauses requests (paused_requests, a level) and counts no preemption
  }

  @Override
  public void onFinished(Request r, FinishReason reason, double now) {
    switch (reason) {
      case ERROR -> backendFailures++;
      case ABORT -> canceled++;
      default -> {
        success++;
        requestMicros += Math.max(0, now - r.arrival()) * 1e6;
        inferMicros += Math.max(0, now - Math.max(r.arrival(), r.scheduledAt())) * 1e6;
      }
    }
  }
}
