package dev.infermon.simulator.trtllm;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.Histogram;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What trtllm-serve's {@code MetricsCollector} counts, following NVIDIA/TensorRT-LLM {@code
 * tensorrt_llm/metrics/collector.py} at 050f80de: a finished request adds to the success counter
 * (by finish reason), its latency histograms and the token counters in one call ({@code
 * log_request_metrics_dict}); the iteration gauges are the engine's state when the stats are read
 * ({@code log_iteration_stats}), and the KV-cache block counters grow by the blocks a scheduled
 * prompt found (reused) or had to compute (missed). A request the engine failed is answered with
 * HTTP 500 and counted in {@code trtllm_request_error_total} only; one the client abandoned is not
 * counted at all (judgements: the source logs per-request metrics only for responses that carry a
 * finish reason, and counts errors by the status it answers). Not thread-safe.
 */
public final class TrtllmMetrics implements EngineListener {
  private Supplier<EngineState> state = () -> null;

  final Map<String, Long> success = new LinkedHashMap<>();
  final Map<String, Long> errors = new LinkedHashMap<>();
  final Histogram e2e = new Histogram(TrtllmBuckets.LONG_REQUEST);
  final Histogram ttft = new Histogram(TrtllmBuckets.TTFT);
  final Histogram tpot = new Histogram(TrtllmBuckets.TPOT);
  final Histogram queue = new Histogram(TrtllmBuckets.LONG_REQUEST);
  // the queue times before #12545 (1.0, 1.3), whose walrus test dropped a 0 (collector.py @
  // 89fd9b74)
  final Histogram queuePositive = new Histogram(TrtllmBuckets.LONG_REQUEST);
  final Histogram prefill = new Histogram(TrtllmBuckets.PREFILL);
  final Histogram decode = new Histogram(TrtllmBuckets.LONG_REQUEST);
  final Histogram inference = new Histogram(TrtllmBuckets.LONG_REQUEST);
  final Histogram cachedPerRequest = new Histogram(TrtllmBuckets.CACHED_TOKENS);
  final Histogram prefillBatchTokens = new Histogram(TrtllmBuckets.PREFILL_BATCH_TOKENS);
  long promptTokens;
  long generationTokens;
  long cachedTokens;
  long completed;
  double reusedBlocks;
  double missedBlocks;
  double lastIterationSeconds;
  int lastContextTokens;
  boolean anyIteration;

  /** Wires the engine whose state the iteration gauges read. */
  public void sampleStateFrom(Supplier<EngineState> source) {
    this.state = source;
  }

  /** The engine state now, or null before the engine started. */
  EngineState state() {
    return state.get();
  }

  /** Finished requests by {@code finished_reason}. */
  public Map<String, Long> success() {
    return Map.copyOf(success);
  }

  /** All finished requests ({@code trtllm_request_success_total} summed). */
  public long finished() {
    long n = 0;
    for (long v : success.values()) {
      n += v;
    }
    return n;
  }

  /** Requests answered with an error status ({@code trtllm_request_error_total} summed). */
  public long errors() {
    long n = 0;
    for (long v : errors.values()) {
      n += v;
    }
    return n;
  }

  /** {@code trtllm_prompt_tokens_total}. */
  public long promptTokens() {
    return promptTokens;
  }

  /** {@code trtllm_generation_tokens_total}. */
  public long generationTokens() {
    return generationTokens;
  }

  /** {@code trtllm_prompt_cached_tokens_total}. */
  public long cachedTokens() {
    return cachedTokens;
  }

  /** The end-to-end latencies of finished requests. */
  public Histogram e2e() {
    return e2e;
  }

  /** The times to first token of finished requests. */
  public Histogram ttft() {
    return ttft;
  }

  /** The queue times of finished requests, 0 included (#12545 on). */
  public Histogram queue() {
    return queue;
  }

  /** The queue times of finished requests above 0 (what the 1.0 and 1.3 collectors observed). */
  public Histogram queuePositive() {
    return queuePositive;
  }

  @Override
  public void onScheduled(Request r, double now, int queried, int hit) {
    EngineState s = state();
    int block = s == null || s.blockSize() == 0 ? 16 : s.blockSize();
    reusedBlocks += (double) hit / block;
    missedBlocks += (double) (queried - hit) / block;
  }

  @Override
  public void onIteration(
      double now, double duration, int steps, int prefillTokens, int decodeTokens, int batch) {
    anyIteration = true;
    lastIterationSeconds = duration;
    lastContextTokens = prefillTokens;
    if (prefillTokens > 0) {
      prefillBatchTokens.observe(prefillTokens);
    }
  }

  @Override
  public void onPreempted(Request r, double now) {
    // TensorRT-LLM pauses requests (num_paused_requests, a level) and counts no preemption
  }

  @Override
  public void onFinished(Request r, FinishReason reason, double now) {
    if (reason == FinishReason.ERROR) {
      errors.merge("500", 1L, Long::sum);
      return;
    }
    if (reason != FinishReason.STOP && reason != FinishReason.LENGTH) {
      return;
    }
    completed++;
    success.merge(reason == FinishReason.STOP ? "stop" : "length", 1L, Long::sum);
    double arrival = r.arrival();
    double first = r.firstTokenAt();
    double scheduled = r.scheduledAt();
    // the collector skips a zero (falsy) latency, except the queue time since #12545
    observePositive(e2e, now - arrival);
    observePositive(ttft, first - arrival);
    if (r.generated() > 1) {
      observePositive(tpot, (now - first) / (r.generated() - 1));
    }
    queue.observe(Math.max(0, scheduled - arrival));
    observePositive(queuePositive, scheduled - arrival);
    observePositive(prefill, first - scheduled);
    observePositive(decode, now - first);
    observePositive(inference, now - scheduled);
    promptTokens += r.promptTokens();
    generationTokens += r.generated();
    cachedTokens += r.cachedTokens();
    cachedPerRequest.observe(r.cachedTokens());
  }

  private static void observePositive(Histogram h, double v) {
    if (v > 0) {
      h.observe(v);
    }
  }
}
