package dev.infermon.simulator.tgi;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.Histogram;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What one TGI router counts, following its source (router/src/server.rs, validation.rs,
 * backends/v3/src/backend.rs and queue.rs at db931fcf): the seven success-path families are
 * recorded together when a request succeeds and only then (a failure adds to {@code
 * tgi_request_failure} alone: {@code dropped} when the client went away, {@code generation} when
 * the engine failed it); the input and max-new-tokens lengths when a request is validated; one
 * prefill call per batch that takes new requests (concatenated with the running batch: {@code
 * tgi_batch_concat{reason="chunking"}}) and decode calls otherwise. The simulated model has no
 * arrival event, so a request is counted as validated when it is first scheduled (or when it leaves
 * unscheduled). Not thread-safe.
 */
public final class TgiMetrics implements EngineListener {
  /** TGI's validation: tokenizing the prompt before the request is queued (simulated cost). */
  static final double VALIDATION_SECONDS_BASE = 0.00012;

  static final double VALIDATION_SECONDS_PER_TOKEN = 2e-8;

  private Supplier<EngineState> state = () -> null;

  long requestCount;
  long requestSuccess;
  final Map<String, Long> failures = new LinkedHashMap<>();
  final Histogram duration = new Histogram(TgiBuckets.DURATION);
  final Histogram validation = new Histogram(TgiBuckets.DURATION);
  final Histogram queue = new Histogram(TgiBuckets.DURATION);
  final Histogram inference = new Histogram(TgiBuckets.DURATION);
  final Histogram timePerToken = new Histogram(TgiBuckets.DURATION);
  final Histogram inputLength;
  final Histogram maxNewTokens;
  final Histogram generatedTokens;
  final Histogram nextSize = new Histogram(TgiBuckets.BATCH_SIZE);
  final Batch prefill = new Batch();
  final Batch decode = new Batch();
  final Histogram concatDuration = new Histogram(TgiBuckets.DURATION);
  long concatChunking;
  long skippedCount;
  private int scheduledSinceIteration;
  private boolean anyRequest;
  private boolean anyBatch;

  /** One method's ({@code prefill} or {@code decode}) batch families. */
  static final class Batch {
    long calls;
    final Histogram inference = new Histogram(TgiBuckets.DURATION);
    final Histogram forward = new Histogram(TgiBuckets.DURATION);
    final Histogram decode = new Histogram(TgiBuckets.DURATION);
    final Histogram filter = new Histogram(TgiBuckets.DURATION);

    void observe(double seconds, int steps) {
      calls += steps;
      // the shard's forward pass is most of a call; detokenizing and filtering the rest
      inference.observe(seconds, steps, seconds * steps);
      forward.observe(0.93 * seconds, steps, 0.93 * seconds * steps);
      decode.observe(0.004 * seconds, steps, 0.004 * seconds * steps);
      filter.observe(0.002 * seconds, steps, 0.002 * seconds * steps);
    }
  }

  /**
   * Counters at zero.
   *
   * @param maxInputTokens {@code --max-input-tokens}: the input-length buckets' top
   * @param maxTotalTokens {@code --max-total-tokens}: the max-new and generated tokens buckets' top
   */
  public TgiMetrics(int maxInputTokens, int maxTotalTokens) {
    inputLength = new Histogram(TgiBuckets.linear(maxInputTokens));
    maxNewTokens = new Histogram(TgiBuckets.linear(maxTotalTokens));
    generatedTokens = new Histogram(TgiBuckets.linear(maxTotalTokens));
  }

  /** Wires the engine whose state the router's gauges read. */
  public void sampleStateFrom(Supplier<EngineState> source) {
    this.state = source;
  }

  /** The engine state now, or null before the engine started. */
  EngineState state() {
    return state.get();
  }

  /** Requests accepted ({@code tgi_request_count}). */
  public long requestCount() {
    return requestCount;
  }

  /** Requests that succeeded ({@code tgi_request_success}). */
  public long requestSuccess() {
    return requestSuccess;
  }

  /** Failed requests by {@code err}. */
  public Map<String, Long> failures() {
    return Map.copyOf(failures);
  }

  /** All failed requests. */
  public long failed() {
    long n = 0;
    for (long v : failures.values()) {
      n += v;
    }
    return n;
  }

  /** The sum of the input lengths ({@code tgi_request_input_length_sum}). */
  public double inputTokens() {
    return inputLength.sum();
  }

  /** The sum of the generated tokens of successful requests. */
  public double generatedTokens() {
    return generatedTokens.sum();
  }

  /** The end-to-end durations of successful requests. */
  public Histogram duration() {
    return duration;
  }

  boolean anyRequest() {
    return anyRequest;
  }

  boolean anyBatch() {
    return anyBatch;
  }

  private static double validationSeconds(Request r) {
    return VALIDATION_SECONDS_BASE + VALIDATION_SECONDS_PER_TOKEN * r.promptTokens();
  }

  private void validated(Request r) {
    anyRequest = true;
    requestCount++;
    inputLength.observe(r.promptTokens());
    maxNewTokens.observe(r.maxTokens());
  }

  @Override
  public void onScheduled(Request r, double now, int queried, int hit) {
    if (r.preemptions() == 0) {
      validated(r);
      scheduledSinceIteration++;
    }
  }

  @Override
  public void onIteration(
      double now, double duration, int steps, int prefillTokens, int decodeTokens, int batch) {
    anyBatch = true;
    if (prefillTokens > 0) {
      prefill.observe(duration, 1);
      nextSize.observe(Math.max(1, scheduledSinceIteration));
      scheduledSinceIteration = 0;
      if (decodeTokens > 0) {
        // with chunking the new requests are concatenated with the running batch server side
        concatChunking++;
        double concat = 0.0003 + 1e-5 * batch;
        concatDuration.observe(concat);
      }
      return;
    }
    decode.observe(duration, steps);
  }

  @Override
  public void onFirstToken(Request r, double now) {
    skippedCount++; // no speculation: n - 1 = 0 skipped tokens per generated token
  }

  @Override
  public void onDecode(int tokens, double interval) {
    skippedCount += tokens;
  }

  @Override
  public void onPreempted(Request r, double now) {
    // TGI exposes no preemption metric
  }

  @Override
  public void onFinished(Request r, FinishReason reason, double now) {
    if (Double.isNaN(r.scheduledAt())) {
      validated(r); // left while queued: it was validated on arrival all the same
    }
    if (reason == FinishReason.ABORT) {
      failures.merge("dropped", 1L, Long::sum);
      return;
    }
    if (reason == FinishReason.ERROR) {
      failures.merge("generation", 1L, Long::sum);
      return;
    }
    requestSuccess++;
    double validationTime = validationSeconds(r);
    double total = now - r.arrival();
    double start = r.scheduledAt();
    double queueTime = Math.max(0, start - r.arrival() - validationTime);
    double inferenceTime = now - start;
    duration.observe(total);
    validation.observe(validationTime);
    queue.observe(queueTime);
    inference.observe(inferenceTime);
    timePerToken.observe(inferenceTime / Math.max(1, r.generated()));
    generatedTokens.observe(r.generated());
  }
}
