package dev.infermon.llm.signals;

import java.util.Locale;

/**
 * The canonical signals every panel and alert is written in. Each engine's catalog maps a signal to
 * its own families ({@code signals:} in the catalog data); the dashboard compiler turns a signal
 * into PromQL for the engines present.
 */
public enum Signal {
  REQUESTS_RUNNING(Kind.GAUGE, "requests"),
  REQUESTS_WAITING(Kind.GAUGE, "requests"),
  REQUESTS_WAITING_BY_REASON(Kind.GAUGE, "requests"),
  REQUESTS_SWAPPED(Kind.GAUGE, "requests"),
  KV_USAGE(Kind.GAUGE, "ratio"),
  /** The KV cache's size in blocks (vLLM) or pages (SGLang), from the engine's config. */
  KV_CAPACITY_BLOCKS(Kind.GAUGE, "blocks"),
  /** The KV cache's size in tokens, from the engine's config. */
  KV_CAPACITY_TOKENS(Kind.GAUGE, "tokens"),
  PREEMPTIONS(Kind.COUNTER, "preemptions"),
  PREFIX_CACHE_QUERIES(Kind.COUNTER, "tokens"),
  PREFIX_CACHE_HITS(Kind.COUNTER, "tokens"),
  PROMPT_TOKENS(Kind.COUNTER, "tokens"),
  GENERATION_TOKENS(Kind.COUNTER, "tokens"),
  CACHED_PROMPT_TOKENS(Kind.COUNTER, "tokens"),
  REQUESTS_FINISHED(Kind.COUNTER, "requests"),
  REQUESTS_SUCCEEDED(Kind.COUNTER, "requests"),
  REQUESTS_FAILED(Kind.COUNTER, "requests"),
  REQUESTS_BY_FINISH_REASON(Kind.COUNTER, "requests"),
  /**
   * Requests the server refused before they reached the engine (a queue cap: vLLM's {@code
   * --max-num-queued-reqs} / {@code --max-num-queued-tokens}), so no finish reason counts them.
   */
  ADMISSION_REJECTIONS(Kind.COUNTER, "requests"),
  ADMISSION_REJECTIONS_BY_REASON(Kind.COUNTER, "requests"),
  TTFT(Kind.HISTOGRAM, "seconds"),
  ITL(Kind.HISTOGRAM, "seconds"),
  TPOT(Kind.HISTOGRAM, "seconds"),
  E2E_LATENCY(Kind.HISTOGRAM, "seconds"),
  QUEUE_TIME(Kind.HISTOGRAM, "seconds"),
  PREFILL_TIME(Kind.HISTOGRAM, "seconds"),
  DECODE_TIME(Kind.HISTOGRAM, "seconds"),
  INFERENCE_TIME(Kind.HISTOGRAM, "seconds"),
  PROMPT_LENGTH(Kind.HISTOGRAM, "tokens"),
  GENERATION_LENGTH(Kind.HISTOGRAM, "tokens"),
  SPEC_DRAFT_TOKENS(Kind.COUNTER, "tokens"),
  SPEC_ACCEPTED_TOKENS(Kind.COUNTER, "tokens"),
  SPEC_ACCEPTANCE(Kind.GAUGE, "ratio"),
  SPEC_DRAFTS(Kind.COUNTER, "drafts"),
  ENGINES_ASLEEP(Kind.GAUGE, "engines"),
  ENGINES_ASLEEP_BY_LEVEL(Kind.GAUGE, "engines"),
  /**
   * vLLM's LoRA state ({@code --enable-lora}): a gauge whose labels list the adapters; panels read
   * it through the per-adapter split of the dashboard's LoRA measures, never as a level.
   */
  LORA_ADAPTERS(Kind.GAUGE, "adapters"),
  /**
   * LoRA slots in use: the adapters the running requests ask for. vLLM's source is its adapter
   * lists (read through the lists' split), SGLang's a gauge.
   */
  LORA_SLOTS_USED(Kind.GAUGE, "slots"),
  /** LoRA slots there are ({@code --max-loras}, SGLang's {@code --max-loras-per-batch}). */
  LORA_SLOTS_TOTAL(Kind.GAUGE, "slots"),
  GPU_TENSOR_ACTIVE(Kind.GPU, "percent"),
  GPU_SM_ACTIVE(Kind.GPU, "percent"),
  GPU_GRAPHICS_ACTIVE(Kind.GPU, "percent"),
  GPU_DRAM_ACTIVE(Kind.GPU, "percent"),
  GPU_COPY_UTIL(Kind.GPU, "percent"),
  GPU_UTIL(Kind.GPU, "percent"),
  GPU_MEMORY_USED(Kind.GPU, "mebibytes"),
  /**
   * Energy the GPUs used, read through {@code rate} of dcgm-exporter's or AMD
   * device-metrics-exporter's energy count (joules per second, i.e. watts, once scaled from
   * millijoules or micro-joules).
   */
  GPU_ENERGY(Kind.GPU, "joules"),
  /**
   * The GPUs attributed to the pods in scope, counted from whichever per-GPU family an exporter
   * exports (its sources are alternatives, not parts).
   */
  GPU_COUNT(Kind.GPU, "gpus"),
  /**
   * The engine's estimate of the floating-point operations one GPU ran (vLLM {@code
   * --enable-mfu-metrics}): its rate is the achieved FLOP/s per GPU, the numerator of model FLOPs
   * utilisation.
   */
  FLOPS_PER_GPU(Kind.COUNTER, "flops"),
  /** The engine's estimate of the bytes one GPU read from its memory. */
  READ_BYTES_PER_GPU(Kind.COUNTER, "bytes"),
  /** The engine's estimate of the bytes one GPU wrote to its memory. */
  WRITE_BYTES_PER_GPU(Kind.COUNTER, "bytes"),
  /** Draft tokens accepted at each draft position ({@code position} 0..k-1). */
  SPEC_ACCEPTED_PER_POSITION(Kind.COUNTER, "tokens"),
  /**
   * Bytes a KV connector moved between prefill and decode engines, read through {@code rate} of the
   * sum of vLLM's per-transfer bytes histogram ({@code nixl_bytes_transferred}).
   */
  KV_TRANSFER_BYTES(Kind.COUNTER, "bytes"),
  /** How long one KV transfer took (vLLM NIXL: one TP worker's transfer). */
  KV_TRANSFER_TIME(Kind.HISTOGRAM, "seconds"),
  /** KV transfers that failed (vLLM NIXL: worker transfers whose blocks were marked invalid). */
  KV_TRANSFER_FAILURES(Kind.COUNTER, "transfers"),
  /** Allocation to eviction of the KV blocks vLLM samples ({@code --kv-cache-metrics}). */
  KV_BLOCK_LIFETIME(Kind.HISTOGRAM, "seconds"),
  /** Last access to eviction of the sampled KV blocks. */
  KV_BLOCK_IDLE_BEFORE_EVICT(Kind.HISTOGRAM, "seconds"),
  /** Time between consecutive accesses of a sampled KV block (its reuse). */
  KV_BLOCK_REUSE_GAP(Kind.HISTOGRAM, "seconds"),
  /**
   * NVLink traffic of the GPUs, read through {@code rate} of dcgm-exporter's all-lane bandwidth
   * counter (bytes, as the exporter's help of its per-lane field says).
   */
  GPU_NVLINK(Kind.GPU, "bytes_per_second");

  /** How a signal's samples are read. */
  public enum Kind {
    /** A level read as is (after aggregation). */
    GAUGE,
    /** A cumulative count read through {@code rate}. */
    COUNTER,
    /** A classic histogram read through its buckets, sum and count. */
    HISTOGRAM,
    /**
     * A GPU exporter's family (dcgm-exporter, AMD device-metrics-exporter), joined to the inference
     * pod it is attributed to.
     */
    GPU
  }

  private final Kind kind;
  private final String unit;

  Signal(Kind kind, String unit) {
    this.kind = kind;
    this.unit = unit;
  }

  public Kind kind() {
    return kind;
  }

  /** The unit after normalisation. */
  public String unit() {
    return unit;
  }

  /** The key used in the catalog data ({@code requests_running}). */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The signal with catalog key {@code key}.
   *
   * @throws IllegalArgumentException naming the key when there is none
   */
  public static Signal fromKey(String key) {
    for (Signal s : values()) {
      if (s.key().equals(key)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown signal: \"" + key + "\"");
  }
}
