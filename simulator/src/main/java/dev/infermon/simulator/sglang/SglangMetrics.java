package dev.infermon.simulator.sglang;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.Histogram;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What one SGLang server counts, following {@code collector.py} (≈v0.5.9) and the scheduler's
 * logging cadence: token counters move only when a request finishes; scheduler gauges are sampled
 * on every prefill batch, every 40 decode iterations and on an idle publish after 30 s, so they are
 * as stale as the real ones; {@code cache_hit_rate} is the last prefill batch's hit rate and reads
 * 0 after a decode log. Not thread-safe.
 */
public final class SglangMetrics implements EngineListener {
  static final int DECODE_LOG_INTERVAL = 40;
  static final double IDLE_PUBLISH_SECONDS = 30;
  private static final double KV_MB_PER_TOKEN = 0.131072; // 128 KiB per token (Llama-3-8B in bf16)
  // a PD transfer as the prefill side reports it: the speed, bootstrap and allocation waits
  static final double KV_SPEED_GB_S = 22.5;
  static final double KV_BOOTSTRAP_MS = 1.8;
  static final double KV_ALLOC_MS = 0.4;

  private final boolean prefillSide;
  private final boolean decodeSide;
  private Supplier<EngineState> state = () -> null;

  // tokenizer side
  long promptTokens;
  long generationTokens;
  long cachedTokens;
  long numRequests;
  long numAborted;
  final Histogram ttft = new Histogram(SglangBuckets.SGLANG_TTFT);
  final Histogram itl = new Histogram(SglangBuckets.SGLANG_ITL);
  final Histogram e2e = new Histogram(SglangBuckets.SGLANG_E2E);
  final Histogram retractions = new Histogram(SglangBuckets.SGLANG_RETRACTIONS);
  final Histogram promptLengths = new Histogram(SglangBuckets.SGLANG_TOKENS);
  final Histogram generationLengths = new Histogram(SglangBuckets.SGLANG_TOKENS);

  // scheduler side
  final Histogram queueTime = new Histogram(SglangBuckets.SGLANG_QUEUE_TIME);

  /**
   * {@code per_stage_req_latency_seconds{stage="prefill_forward"}} of a PD prefill server: its
   * output processor calls {@code req.add_latency(RequestStage.PREFILL_FORWARD)} when a request's
   * prefill is done, the time since the stage before (bootstrap and waiting are stages of their own
   * there), so from being scheduled to the first token. A unified server's prefill path only traces
   * the stage ({@code trace_slice}) in the sources read, so it has none here.
   */
  final Histogram prefillForward = new Histogram(SglangBuckets.SGLANG_PER_STAGE);

  /**
   * The PD prefill side's per-request KV transfer histograms (0.5.10+: {@code
   * compute_and_observe_kv_transfer_metrics}, one observation per request sent); the 0.5.9 page
   * shows the last request's figures as gauges instead.
   */
  final Histogram kvTransferLatencyMs = new Histogram(SglangBuckets.SGLANG_KV_TRANSFER_LATENCY_MS);

  final Histogram kvTransferSpeed = new Histogram(SglangBuckets.SGLANG_KV_TRANSFER_SPEED);
  final Histogram kvTransferBootstrapMs = new Histogram(SglangBuckets.SGLANG_KV_TRANSFER_WAIT_MS);
  final Histogram kvTransferAllocMs = new Histogram(SglangBuckets.SGLANG_KV_TRANSFER_WAIT_MS);
  final Histogram kvTransferTotalMb = new Histogram(SglangBuckets.SGLANG_KV_TRANSFER_MB);

  long retractedRequests;
  long retractedInputTokens;
  long retractedOutputTokens;
  long decodeCudaGraphPasses;
  long realtimePrefillCompute;
  long realtimePrefillCache;
  long realtimeDecode;
  private long pendingPrefillCompute;
  private long pendingPrefillCache;
  private long pendingDecode;

  // LoRA (--enable-lora): the adapter of each running request; slots as the last log wrote them
  private int loraSlotsTotal;
  private final Map<Long, String> runningAdapters = new HashMap<>();
  private int loraSlotsUsed;

  // sampled gauges (what the last log wrote)
  Gauges gauges = Gauges.EMPTY;
  private int decodeIterationsSinceLog;
  private double lastLog = Double.NaN;
  private double lastDecodeLog = Double.NaN;
  private long decodeTokensSinceDecodeLog;
  private long batchQueried;
  private long batchHit;
  private int retractedSinceLog;
  private double lastTransferMb;
  private int inflightTransfers;

  /**
   * Counters at zero.
   *
   * @param prefillSide the prefill server of a PD pair (no TTFT, inflight queue)
   * @param decodeSide the decode server of a PD pair (prealloc and transfer queues)
   */
  public SglangMetrics(boolean prefillSide, boolean decodeSide) {
    if (prefillSide && decodeSide) {
      throw new IllegalArgumentException("a server is either the prefill or the decode side");
    }
    this.prefillSide = prefillSide;
    this.decodeSide = decodeSide;
  }

  /** Wires the engine whose state the scheduler gauges sample. */
  public void sampleStateFrom(Supplier<EngineState> source) {
    this.state = source;
  }

  /** Generation tokens counted so far (added when requests finish). */
  public long generationTokens() {
    return generationTokens;
  }

  /** Requests counted as finished so far. */
  public long numRequests() {
    return numRequests;
  }

  /** Whether the scheduler has logged at least once (its families exist from then on). */
  public boolean lastLogged() {
    return !Double.isNaN(lastLog);
  }

  /** The sampled scheduler gauges as of the last log. */
  public Gauges gauges() {
    return gauges;
  }

  /**
   * An idle server re-publishes its gauges after 30 s; call before rendering a page at {@code now}.
   */
  public void publishIfIdle(double now) {
    EngineState s = state.get();
    if (s == null) {
      return;
    }
    if (Double.isNaN(lastLog) || now - lastLog >= IDLE_PUBLISH_SECONDS) {
      log(now, s, 0.0, 0.0);
    }
  }

  @Override
  public void onScheduled(Request r, double now, int queried, int hit) {
    if (r.adapter() != null) {
      runningAdapters.put(r.id(), r.adapter());
    }
    if (r.preemptions() == 0) {
      queueTime.observe(now - r.arrival());
    }
    batchQueried += queried;
    batchHit += hit;
    pendingPrefillCache += hit;
  }

  @Override
  public void onIteration(
      double now, double duration, int steps, int prefillTokens, int decodeTokens, int batch) {
    pendingPrefillCompute += prefillTokens;
    if (decodeTokens > 0) {
      decodeCudaGraphPasses += steps;
    }
    EngineState s = state.get();
    if (s == null) {
      return;
    }
    if (prefillTokens > 0) {
      double hitRate = batchQueried == 0 ? 0 : (double) batchHit / batchQueried;
      log(now, s, gauges.genThroughput(), hitRate);
      batchQueried = 0;
      batchHit = 0;
      return;
    }
    decodeIterationsSinceLog += steps;
    if (decodeIterationsSinceLog >= DECODE_LOG_INTERVAL) {
      double since = Double.isNaN(lastDecodeLog) ? duration : now - lastDecodeLog;
      double throughput = since > 0 ? decodeTokensSinceDecodeLog / since : 0;
      lastDecodeLog = now;
      decodeTokensSinceDecodeLog = 0;
      log(now, s, throughput, 0.0);
    }
  }

  private void log(double now, EngineState s, double genThroughput, double cacheHitRate) {
    realtimePrefillCompute += pendingPrefillCompute;
    realtimePrefillCache += pendingPrefillCache;
    realtimeDecode += pendingDecode;
    pendingPrefillCompute = 0;
    pendingPrefillCache = 0;
    pendingDecode = 0;
    decodeIterationsSinceLog = 0;
    lastLog = now;
    int queue = decodeSide ? 0 : s.waiting();
    gauges =
        new Gauges(
            s.running(),
            queue,
            s.usedTokens(),
            Math.round(s.kvUsage() * 100) / 100.0,
            s.decodeSumSeqLens(),
            genThroughput,
            cacheHitRate,
            (long) s.totalBlocks() * s.blockSize(),
            retractedSinceLog,
            prefillSide ? inflightTransfers : 0,
            decodeSide ? s.waiting() : 0,
            decodeSide ? s.transferring() : 0,
            prefillSide ? lastTransferMb : 0,
            s.blockSize());
    retractedSinceLog = 0;
    inflightTransfers = 0;
    // scheduler_metrics_mixin: slots_used = the distinct adapters (not the base model) of the
    // running batch's requests, at each log
    loraSlotsUsed = (int) runningAdapters.values().stream().distinct().count();
  }

  @Override
  public void onFirstToken(Request r, double now) {
    if (!prefillSide) {
      ttft.observe(now - r.arrival());
    } else {
      prefillForward.observe(now - r.scheduledAt());
      inflightTransfers++;
      lastTransferMb = r.promptTokens() * KV_MB_PER_TOKEN;
      kvTransferTotalMb.observe(lastTransferMb);
      kvTransferSpeed.observe(KV_SPEED_GB_S);
      kvTransferLatencyMs.observe(lastTransferMb / KV_SPEED_GB_S); // MB / (GB/s) = ms
      kvTransferBootstrapMs.observe(KV_BOOTSTRAP_MS);
      kvTransferAllocMs.observe(KV_ALLOC_MS);
    }
    pendingDecode++;
    decodeTokensSinceDecodeLog++;
  }

  @Override
  public void onDecode(int tokens, double interval) {
    itl.observe(interval, tokens, interval * tokens);
    pendingDecode += tokens;
    decodeTokensSinceDecodeLog += tokens;
  }

  @Override
  public void onPreempted(Request r, double now) {
    runningAdapters.remove(r.id());
    retractedRequests++;
    retractedInputTokens += r.promptTokens();
    retractedOutputTokens += r.generated();
    retractedSinceLog++;
  }

  @Override
  public void onFinished(Request r, FinishReason reason, double now) {
    runningAdapters.remove(r.id());
    // the tokenizer manager counts tokens only when a request finishes
    promptTokens += r.promptTokens();
    generationTokens += r.generated();
    if (!Double.isNaN(r.scheduledAt())) {
      cachedTokens += r.cachedTokens();
    }
    numRequests++;
    if (reason == FinishReason.ABORT || reason == FinishReason.ERROR) {
      numAborted++;
    }
    e2e.observe(now - r.arrival());
    retractions.observe(r.preemptions());
    promptLengths.observe(r.promptTokens());
    generationLengths.observe(r.generated());
  }

  /**
   * Turns on the LoRA pool gauges ({@code --enable-lora}).
   *
   * @param maxLorasPerBatch the pool's slots ({@code --max-loras-per-batch})
   */
  public void enableLora(int maxLorasPerBatch) {
    if (maxLorasPerBatch < 1) {
      throw new IllegalArgumentException("maxLorasPerBatch must be >= 1, got " + maxLorasPerBatch);
    }
    loraSlotsTotal = maxLorasPerBatch;
  }

  /** Whether the server runs with {@code --enable-lora}. */
  public boolean loraEnabled() {
    return loraSlotsTotal > 0;
  }

  /** {@code lora_pool_slots_used} as the last log wrote it. */
  public int loraSlotsUsed() {
    return loraSlotsUsed;
  }

  /** {@code lora_pool_slots_total}: {@code max_loras_per_batch}. */
  public int loraSlotsTotal() {
    return loraSlotsTotal;
  }

  /** Whether this is the prefill server of a PD pair. */
  public boolean prefillSide() {
    return prefillSide;
  }

  /** Whether this is the decode server of a PD pair. */
  public boolean decodeSide() {
    return decodeSide;
  }

  /**
   * The scheduler gauges as the last log wrote them.
   *
   * @param running {@code num_running_reqs}
   * @param queue {@code num_queue_reqs}
   * @param usedTokens {@code num_used_tokens}
   * @param tokenUsage {@code token_usage}, rounded to 2 decimals as SGLang does
   * @param decodeSumSeqLens {@code decode_sum_seq_lens}
   * @param genThroughput {@code gen_throughput}, tokens/s over the last decode-log window
   * @param cacheHitRate {@code cache_hit_rate} of the last prefill batch
   * @param maxTotalTokens {@code max_total_num_tokens}
   * @param retracted {@code num_retracted_reqs} in the last interval
   * @param prefillInflight {@code num_prefill_inflight_queue_reqs}
   * @param decodePrealloc {@code num_decode_prealloc_queue_reqs}
   * @param decodeTransfer {@code num_decode_transfer_queue_reqs}
   * @param transferTotalMb {@code kv_transfer_total_mb} of the last transfer
   * @param pageSize tokens per KV page ({@code cache_config_info}'s {@code page_size}): the
   *     engine's block, as if the server ran with {@code --page-size} of that many tokens
   */
  public record Gauges(
      int running,
      int queue,
      long usedTokens,
      double tokenUsage,
      long decodeSumSeqLens,
      double genThroughput,
      double cacheHitRate,
      long maxTotalTokens,
      int retracted,
      int prefillInflight,
      int decodePrealloc,
      int decodeTransfer,
      double transferTotalMb,
      int pageSize) {
    /** Before the first log. */
    public static final Gauges EMPTY = new Gauges(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);

    /**
     * {@code cache_config_info}'s {@code num_pages}: SGLang's max_total_num_tokens // page_size.
     */
    public long numPages() {
      return maxTotalTokens / pageSize;
    }
  }
}
