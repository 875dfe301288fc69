package dev.infermon.simulator.vllm;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.Histogram;

/**
 * What one vLLM engine core counts, following {@code vllm/v1/metrics/loggers.py}: prompt tokens
 * when a prefill completes, generation tokens per step, prefix-cache queries and hits (tokens) when
 * a request is scheduled, preemptions, finished requests by reason, and the per-request histograms
 * observed when a request finishes. The V0 (0.4.3) page reads the same counts with V0's buckets.
 * With speculative decoding ({@code --speculative-config}, {@code num_speculative_tokens = k}) the
 * decode tokens are grouped into verify steps as {@code vllm/v1/spec_decode/metrics.py} counts
 * them: each step drafts k tokens, accepts a of them and emits 1 + a, so generation tokens after
 * the first equal drafts + accepted, as on the real 2026-09 spec-decode page (17807 + 27189 ≈
 * 44995). Not thread-safe.
 */
public final class VllmMetrics implements EngineListener {
  /** Reason labels in the order vLLM pre-creates them. */
  public static final String[] FINISHED_REASONS = {
    "stop", "length", "abort", "error", "repetition"
  };

  /**
   * Accepted draft tokens of consecutive verify steps, clamped to k: a fixed cycle, so the truth a
   * test reads is exact, with acceptance decaying by position as in the real capture.
   */
  private static final int[] ACCEPTED_CYCLE = {
    1, 0, 2, 1, 3, 0, 1, 2, 4, 1, 0, 2, 1, 5, 0, 1, 3, 2, 1, 6
  };

  private final boolean v0;
  private final boolean externalPrompt;
  private final int speculativeTokens;
  private VllmLora lora; // null without --enable-lora
  private VllmMfu mfu; // null without --enable-mfu-metrics
  private VllmNixl nixl; // null without the NIXL connector
  private VllmKvResidency kvResidency; // null without --kv-cache-metrics
  private VllmLmcache lmcache; // null without LMCache
  double flops;
  double readBytes;
  double writeBytes;

  // counters
  long promptTokens;
  long generationTokens;
  long preemptions;
  long prefixQueries;
  long prefixHits;
  long promptLocalCompute;
  long promptLocalCacheHit;
  long promptExternal;
  final long[] finished = new long[FINISHED_REASONS.length];
  long specDrafts;
  long specDraftTokens;
  long specAccepted;
  final long[] specAcceptedPerPos;
  private long specPending; // decode tokens not yet grouped into a verify step
  private double specPendingSeconds; // the decode time of those tokens
  long httpOk;
  long httpServerError;
  double httpRequestBytes;
  double httpResponseBytes;

  // histograms
  final Histogram requestPromptTokens;
  final Histogram requestGenerationTokens;
  final Histogram iterationTokens;
  final Histogram maxNumGenerationTokens;
  final Histogram paramsN;
  final Histogram paramsMaxTokens;
  final Histogram ttft;
  final Histogram itl;
  final Histogram v0Tpot;
  final Histogram requestTpot;
  final Histogram e2e;
  final Histogram queue;
  final Histogram inference;
  final Histogram prefill;
  final Histogram decode;
  final Histogram prefillKvComputed;
  final Histogram httpHighr;
  final Histogram httpChat;

  // V0's throughput gauges average over its 5 s log interval
  private double windowStart = Double.NaN;
  private long windowPrompt;
  private long windowGeneration;
  double avgPromptThroughput;
  double avgGenerationThroughput;

  /**
   * Counters at zero for an engine with the given context length.
   *
   * @param v0 whether to use V0's (0.4.3) latency buckets
   * @param externalPrompt whether prompts arrive over a KV connector (the decode side of a PD pair)
   */
  public VllmMetrics(int maxModelLen, boolean v0, boolean externalPrompt) {
    this(maxModelLen, v0, externalPrompt, 0);
  }

  /**
   * Counters at zero for an engine with the given context length.
   *
   * @param v0 whether to use V0's (0.4.3) latency buckets
   * @param externalPrompt whether prompts arrive over a KV connector (the decode side of a PD pair)
   * @param speculativeTokens {@code num_speculative_tokens}, 0 without speculative decoding
   */
  public VllmMetrics(int maxModelLen, boolean v0, boolean externalPrompt, int speculativeTokens) {
    if (speculativeTokens < 0 || speculativeTokens > 16) {
      throw new IllegalArgumentException(
          "speculativeTokens must be in [0, 16], got " + speculativeTokens);
    }
    if (v0 && speculativeTokens > 0) {
      throw new IllegalArgumentException("the simulated V0 page has no spec-decode counters");
    }
    this.v0 = v0;
    this.externalPrompt = externalPrompt;
    this.speculativeTokens = speculativeTokens;
    this.specAcceptedPerPos = new long[speculativeTokens];
    double[] tokens = VllmBuckets.oneTwoFive(maxModelLen);
    requestPromptTokens = new Histogram(tokens);
    requestGenerationTokens = new Histogram(tokens);
    maxNumGenerationTokens = new Histogram(tokens);
    paramsMaxTokens = new Histogram(tokens);
    prefillKvComputed = new Histogram(tokens);
    iterationTokens = new Histogram(VllmBuckets.VLLM_ITERATION_TOKENS);
    paramsN = new Histogram(VllmBuckets.VLLM_PARAMS_N);
    ttft = new Histogram(v0 ? VllmBuckets.VLLM_V0_TTFT : VllmBuckets.VLLM_TTFT);
    itl = new Histogram(VllmBuckets.VLLM_ITL);
    v0Tpot = new Histogram(VllmBuckets.VLLM_V0_TPOT);
    requestTpot = new Histogram(VllmBuckets.VLLM_ITL);
    e2e = new Histogram(v0 ? VllmBuckets.VLLM_V0_E2E : VllmBuckets.VLLM_REQUEST_LATENCY);
    queue = new Histogram(VllmBuckets.VLLM_REQUEST_LATENCY);
    inference = new Histogram(VllmBuckets.VLLM_REQUEST_LATENCY);
    prefill = new Histogram(VllmBuckets.VLLM_REQUEST_LATENCY);
    decode = new Histogram(VllmBuckets.VLLM_REQUEST_LATENCY);
    httpHighr = new Histogram(VllmBuckets.HTTP_HIGHR);
    httpChat = new Histogram(VllmBuckets.HTTP_BY_HANDLER);
  }

  /** Prompt tokens counted so far ({@code vllm:prompt_tokens_total}). */
  public long promptTokens() {
    return promptTokens;
  }

  /** Generation tokens counted so far ({@code vllm:generation_tokens_total}). */
  public long generationTokens() {
    return generationTokens;
  }

  /** Preemptions counted so far ({@code vllm:num_preemptions_total}). */
  public long preemptions() {
    return preemptions;
  }

  /** Finished requests with the given reason label ({@code vllm:request_success_total}). */
  public long finished(String reason) {
    for (int i = 0; i < FINISHED_REASONS.length; i++) {
      if (FINISHED_REASONS[i].equals(reason)) {
        return finished[i];
      }
    }
    throw new IllegalArgumentException("unknown finished_reason: \"" + reason + "\"");
  }

  /**
   * Tracks LoRA adapters from now on ({@code --enable-lora}): the page then has {@code
   * vllm:lora_requests_info}. Called once, before the engine runs.
   */
  public void enableLora(VllmLora l) {
    if (v0) {
      throw new IllegalArgumentException("the simulated V0 (0.4.3) page has no LoRA gauge");
    }
    this.lora = l;
  }

  /**
   * Grows the FLOPs and memory-traffic counters from now on ({@code --enable-mfu-metrics}); without
   * it they stay 0, as vLLM registers them anyway. Called once, before the engine runs.
   */
  public void enableMfu(VllmMfu m) {
    if (v0) {
      throw new IllegalArgumentException("the simulated V0 (0.4.3) page has no MFU counters");
    }
    this.mfu = m;
  }

  /**
   * Counts NIXL transfers from now on (a prefill/decode pod's {@code --kv-transfer-config} with
   * {@code NixlConnector}): the decode side, whose prompts arrive over the connector, records one
   * transfer per TP worker for each request whose KV arrived. Called once, before the engine runs.
   */
  public void enableNixl(VllmNixl n) {
    if (v0) {
      throw new IllegalArgumentException("the simulated V0 (0.4.3) page has no KV connector");
    }
    this.nixl = n;
  }

  /**
   * Counts LMCache's lookups, retrieves and stores from now on ({@code --kv-transfer-config} with
   * {@code LMCacheConnectorV1}). Called once, before the engine runs.
   */
  public void enableLmcache(VllmLmcache l) {
    if (v0) {
      throw new IllegalArgumentException("LMCache's connector needs vLLM V1");
    }
    this.lmcache = l;
  }

  /** The engine's LMCache, or null without it. */
  public VllmLmcache lmcache() {
    return lmcache;
  }

  /** The engine's NIXL connector stats, or null without the connector. */
  public VllmNixl nixl() {
    return nixl;
  }

  /**
   * Samples KV blocks from now on ({@code --kv-cache-metrics}). Called once, before the engine
   * runs.
   */
  public void enableKvResidency(VllmKvResidency k) {
    if (v0) {
      throw new IllegalArgumentException("the simulated V0 (0.4.3) page has no KV residency");
    }
    this.kvResidency = k;
  }

  /** The engine's KV block residency sampling, or null without {@code --kv-cache-metrics}. */
  public VllmKvResidency kvResidency() {
    return kvResidency;
  }

  /** Estimated FLOPs per GPU so far ({@code vllm:estimated_flops_per_gpu_total}). */
  public double flops() {
    return flops;
  }

  /** Estimated bytes read per GPU so far. */
  public double readBytes() {
    return readBytes;
  }

  /** Estimated bytes written per GPU so far. */
  public double writeBytes() {
    return writeBytes;
  }

  /** The engine's LoRA state, or null without {@code --enable-lora}. */
  public VllmLora lora() {
    return lora;
  }

  /** {@code num_speculative_tokens}; 0 when speculative decoding is off. */
  public int speculativeTokens() {
    return speculativeTokens;
  }

  /** Verify steps that drafted ({@code vllm:spec_decode_num_drafts_total}). */
  public long specDrafts() {
    return specDrafts;
  }

  /** Draft tokens proposed ({@code vllm:spec_decode_num_draft_tokens_total}). */
  public long specDraftTokens() {
    return specDraftTokens;
  }

  /** Draft tokens accepted ({@code vllm:spec_decode_num_accepted_tokens_total}). */
  public long specAccepted() {
    return specAccepted;
  }

  /** Drafts whose token at {@code position} was accepted ({@code ..._per_pos_total}). */
  public long specAcceptedAt(int position) {
    return specAcceptedPerPos[position];
  }

  /** The time-to-first-token histogram. */
  public Histogram ttft() {
    return ttft;
  }

  /** The per-request decode-time histogram (first token to last). */
  public Histogram decodeTime() {
    return decode;
  }

  /** The inter-token-latency histogram: one observation per engine output of a request. */
  public Histogram interTokenLatency() {
    return itl;
  }

  /** V0's time-per-output-token histogram: one observation per decoded token. */
  public Histogram timePerOutputToken() {
    return v0Tpot;
  }

  /** The end-to-end request latency histogram (V0's buckets on a V0 engine). */
  public Histogram e2eLatency() {
    return e2e;
  }

  /** The per-request prompt-length histogram. */
  public Histogram requestPromptTokens() {
    return requestPromptTokens;
  }

  /** The per-request generation-length histogram. */
  public Histogram requestGenerationTokens() {
    return requestGenerationTokens;
  }

  @Override
  public void onScheduled(Request r, double now, int queried, int hit) {
    prefixQueries += queried;
    prefixHits += hit;
    if (lmcache != null) {
      lmcache.scheduled(r.id(), queried, hit, now);
    }
    if (lora != null) {
      lora.scheduled(r);
    }
    if (kvResidency != null) {
      kvResidency.scheduled(r, now);
    }
  }

  @Override
  public void onQueued(Request r, double now) {
    if (lora != null) {
      lora.queued(r);
    }
    if (nixl != null && externalPrompt) {
      // on the decode side a request is queued once its KV arrived: the transfer took until now
      nixl.received(r.promptTokens(), now - r.arrival());
    }
  }

  @Override
  public void onIteration(
      double now, double duration, int steps, int prefillTokens, int decodeTokens, int batch) {
    int tokens = prefillTokens + decodeTokens;
    iterationTokens.observe(tokens, steps, (double) tokens * steps);
    if (lmcache != null) {
      lmcache.flush(now);
    }
    if (mfu != null && tokens > 0) {
      // PerfMetricsProm.observe: every step that scheduled tokens adds its estimate
      flops += mfu.flopsPerToken() * tokens * steps;
      readBytes += mfu.readBytesPerStep() * steps;
      writeBytes += mfu.writeBytesPerToken() * tokens * steps;
    }
    if (lora != null) {
      lora.record(now); // the stat logger records once per engine step's outputs
    }
    if (Double.isNaN(windowStart)) {
      windowStart = now;
    } else if (now - windowStart >= 5.0) {
      double dt = now - windowStart;
      avgPromptThroughput = windowPrompt / dt;
      avgGenerationThroughput = windowGeneration / dt;
      windowPrompt = 0;
      windowGeneration = 0;
      windowStart = now;
    }
  }

  @Override
  public void onFirstToken(Request r, double now) {
    // the step that completes the prefill also samples the first token
    promptTokens += r.promptTokens();
    windowPrompt += r.promptTokens();
    if (externalPrompt) {
      promptExternal += r.promptTokens();
    } else {
      promptLocalCompute += r.promptTokens() - r.cachedTokens();
      promptLocalCacheHit += r.cachedTokens();
    }
    generationTokens++;
    windowGeneration++;
    ttft.observe(now - r.arrival());
  }

  @Override
  public void onDecode(int tokens, double interval) {
    generationTokens += tokens;
    windowGeneration += tokens;
    v0Tpot.observe(interval, tokens, interval * tokens);
    if (speculativeTokens > 0) {
      draft(tokens, interval);
    } else {
      itl.observe(interval, tokens, interval * tokens);
    }
  }

  /**
   * Groups decode tokens into verify steps that each emit 1 + accepted tokens. vLLM observes ITL
   * once per engine output, and a verify step's output carries all its tokens ({@code
   * vllm/v1/metrics/stats.py} update_from_output): one ITL observation per step, the time of its
   * tokens, so ITL's sum stays the decode time and its count becomes the steps.
   */
  private void draft(int tokens, double interval) {
    long fresh = tokens; // tokens of this call not yet in a step, after the carried ones
    while (true) {
      int accepted =
          Math.min(speculativeTokens, ACCEPTED_CYCLE[(int) (specDrafts % ACCEPTED_CYCLE.length)]);
      if (specPending + fresh < 1 + accepted) {
        specPending += fresh;
        specPendingSeconds += fresh * interval;
        return;
      }
      long taken = 1 + accepted - specPending;
      fresh -= taken;
      itl.observe(specPendingSeconds + taken * interval);
      specPending = 0;
      specPendingSeconds = 0;
      specDrafts++;
      specDraftTokens += speculativeTokens;
      specAccepted += accepted;
      for (int i = 0; i < accepted; i++) {
        specAcceptedPerPos[i]++; // as SpecDecodingStats.observe_draft: positions 0..accepted-1
      }
    }
  }

  @Override
  public void onPreempted(Request r, double now) {
    preemptions++;
    if (lora != null) {
      lora.preempted(r);
    }
    if (kvResidency != null) {
      kvResidency.released(r, now);
    }
  }

  @Override
  public void onFinished(Request r, FinishReason reason, double now) {
    if (lora != null) {
      lora.finished(r);
    }
    if (kvResidency != null) {
      kvResidency.released(r, now);
    }
    int idx;
    switch (reason) {
      case STOP:
        idx = 0;
        break;
      case LENGTH:
        idx = 1;
        break;
      case ABORT:
        idx = 2;
        break;
      default:
        idx = 3;
        break;
    }
    finished[idx]++;
    if (reason == FinishReason.ERROR) {
      httpServerError++;
    } else {
      httpOk++;
    }
    double e2eSeconds = now - r.arrival();
    httpHighr.observe(e2eSeconds);
    httpChat.observe(e2eSeconds);
    httpRequestBytes += 200 + 4.0 * r.promptTokens();
    httpResponseBytes += 60 + 4.0 * r.generated();
    if (Double.isNaN(r.scheduledAt())) {
      return; // never ran: no phase histograms
    }
    int computed = externalPrompt ? 0 : r.promptTokens() - r.cachedTokens();
    requestPromptTokens.observe(r.promptTokens());
    requestGenerationTokens.observe(r.generated());
    maxNumGenerationTokens.observe(r.generated());
    paramsN.observe(1);
    paramsMaxTokens.observe(r.maxTokens());
    prefillKvComputed.observe(computed);
    e2e.observe(e2eSeconds);
    queue.observe(r.scheduledAt() - r.arrival());
    inference.observe(now - r.scheduledAt());
    if (!Double.isNaN(r.firstTokenAt())) {
      prefill.observe(r.firstTokenAt() - r.scheduledAt());
      double decodeSeconds = now - r.firstTokenAt();
      decode.observe(decodeSeconds);
      if (r.generated() > 1) {
        requestTpot.observe(decodeSeconds / (r.generated() - 1));
      }
    }
  }

  /** Whether this engine uses V0's buckets. */
  public boolean isV0() {
    return v0;
  }
}
