package dev.infermon.llm.signals;

import java.util.Locale;

/**
 * The canonical signals every panel and alert is written in. Each engine's catalog maps a signal to
 * its own families ({@code signals:} in the catalog data); the dashboard compiler turns a signal
 * into PromQL for the engines present.
 */
public enum Signal {
  REQUESTS_RUNNING(Kind.GAUGE, "requests", "running requests"),
  REQUESTS_WAITING(Kind.GAUGE, "requests", "waiting requests"),
  REQUESTS_WAITING_BY_REASON(Kind.GAUGE, "requests", "waiting requests by reason"),
  REQUESTS_SWAPPED(Kind.GAUGE, "requests", "swapped requests"),
  KV_USAGE(Kind.GAUGE, "ratio", "KV-cache usage"),
  /** The KV cache's size in blocks (vLLM) or pages (SGLang), from the engine's config. */
  KV_CAPACITY_BLOCKS(Kind.GAUGE, "blocks", "KV-cache size in blocks"),
  /** The KV cache's size in tokens, from the engine's config. */
  KV_CAPACITY_TOKENS(Kind.GAUGE, "tokens", "KV-cache size in tokens"),
  PREEMPTIONS(Kind.COUNTER, "preemptions", "request preemptions"),
  PREFIX_CACHE_QUERIES(Kind.COUNTER, "tokens", "prefix-cache queries"),
  PREFIX_CACHE_HITS(Kind.COUNTER, "tokens", "prefix-cache hits"),
  PROMPT_TOKENS(Kind.COUNTER, "tokens", "prompt tokens"),
  GENERATION_TOKENS(Kind.COUNTER, "tokens", "generation tokens"),
  CACHED_PROMPT_TOKENS(Kind.COUNTER, "tokens", "cached prompt tokens"),
  REQUESTS_FINISHED(Kind.COUNTER, "requests", "finished requests"),
  REQUESTS_SUCCEEDED(Kind.COUNTER, "requests", "successful requests"),
  REQUESTS_FAILED(Kind.COUNTER, "requests", "failed requests"),
  REQUESTS_BY_FINISH_REASON(Kind.COUNTER, "requests", "requests by finish reason"),
  /**
   * Requests the server refused before they reached the engine (a queue cap: vLLM's {@code
   * --max-num-queued-reqs} / {@code --max-num-queued-tokens}), so no finish reason counts them.
   */
  ADMISSION_REJECTIONS(Kind.COUNTER, "requests", "requests rejected at admission"),
  ADMISSION_REJECTIONS_BY_REASON(Kind.COUNTER, "requests", "admission rejections by reason"),
  TTFT(Kind.HISTOGRAM, "seconds", "time to first token"),
  ITL(Kind.HISTOGRAM, "seconds", "inter-token latency"),
  TPOT(Kind.HISTOGRAM, "seconds", "time per output token"),
  E2E_LATENCY(Kind.HISTOGRAM, "seconds", "end-to-end latency"),
  QUEUE_TIME(Kind.HISTOGRAM, "seconds", "queue time"),
  PREFILL_TIME(Kind.HISTOGRAM, "seconds", "prefill time"),
  DECODE_TIME(Kind.HISTOGRAM, "seconds", "decode time"),
  INFERENCE_TIME(Kind.HISTOGRAM, "seconds", "inference time"),
  PROMPT_LENGTH(Kind.HISTOGRAM, "tokens", "prompt length"),
  GENERATION_LENGTH(Kind.HISTOGRAM, "tokens", "generation length"),
  SPEC_DRAFT_TOKENS(Kind.COUNTER, "tokens", "speculative draft tokens"),
  SPEC_ACCEPTED_TOKENS(Kind.COUNTER, "tokens", "accepted speculative tokens"),
  SPEC_ACCEPTANCE(Kind.GAUGE, "ratio", "speculative acceptance rate"),
  SPEC_DRAFTS(Kind.COUNTER, "drafts", "speculative drafts"),
  ENGINES_ASLEEP(Kind.GAUGE, "engines", "sleeping engines"),
  ENGINES_ASLEEP_BY_LEVEL(Kind.GAUGE, "engines", "sleeping engines by sleep level"),
  /**
   * vLLM's LoRA state ({@code --enable-lora}): a gauge whose labels list the adapters; panels read
   * it through the per-adapter split of the dashboard's LoRA measures, never as a level.
   */
  LORA_ADAPTERS(Kind.GAUGE, "adapters", "LoRA adapters"),
  /**
   * LoRA slots in use: the adapters the running requests ask for. vLLM's source is its adapter
   * lists (read through the lists' split), SGLang's a gauge.
   */
  LORA_SLOTS_USED(Kind.GAUGE, "slots", "LoRA slots in use"),
  /** LoRA slots there are ({@code --max-loras}, SGLang's {@code --max-loras-per-batch}). */
  LORA_SLOTS_TOTAL(Kind.GAUGE, "slots", "configured LoRA slots"),
  GPU_TENSOR_ACTIVE(Kind.GPU, "percent", "tensor-core activity"),
  GPU_SM_ACTIVE(Kind.GPU, "percent", "SM activity"),
  GPU_GRAPHICS_ACTIVE(Kind.GPU, "percent", "graphics-engine activity"),
  GPU_DRAM_ACTIVE(Kind.GPU, "percent", "GPU memory-bandwidth activity"),
  GPU_COPY_UTIL(Kind.GPU, "percent", "copy-engine utilisation"),
  GPU_UTIL(Kind.GPU, "percent", "GPU utilisation"),
  GPU_MEMORY_USED(Kind.GPU, "mebibytes", "GPU memory used"),
  /**
   * Energy the GPUs used, read through {@code rate} of dcgm-exporter's or AMD
   * device-metrics-exporter's energy count (joules per second, i.e. watts, once scaled from
   * millijoules or micro-joules).
   */
  GPU_ENERGY(Kind.GPU, "joules", "GPU energy"),
  /**
   * The GPUs attributed to the pods in scope, counted from whichever per-GPU family an exporter
   * exports (its sources are alternatives, not parts).
   */
  GPU_COUNT(Kind.GPU, "gpus", "GPU count"),
  /**
   * The engine's estimate of the floating-point operations one GPU ran (vLLM {@code
   * --enable-mfu-metrics}): its rate is the achieved FLOP/s per GPU, the numerator of model FLOPs
   * utilisation.
   */
  FLOPS_PER_GPU(Kind.COUNTER, "flops", "floating-point operations per GPU"),
  /** The engine's estimate of the bytes one GPU read from its memory. */
  READ_BYTES_PER_GPU(Kind.COUNTER, "bytes", "bytes read per GPU"),
  /** The engine's estimate of the bytes one GPU wrote to its memory. */
  WRITE_BYTES_PER_GPU(Kind.COUNTER, "bytes", "bytes written per GPU"),
  /** Draft tokens accepted at each draft position ({@code position} 0..k-1). */
  SPEC_ACCEPTED_PER_POSITION(
      Kind.COUNTER, "tokens", "accepted speculative tokens per draft position"),
  /**
   * Bytes a KV connector moved between prefill and decode engines, read through {@code rate} of the
   * sum of vLLM's per-transfer bytes histogram ({@code nixl_bytes_transferred}).
   */
  KV_TRANSFER_BYTES(Kind.COUNTER, "bytes", "KV-transfer bytes"),
  /** How long one KV transfer took (vLLM NIXL: one TP worker's transfer). */
  KV_TRANSFER_TIME(Kind.HISTOGRAM, "seconds", "KV-transfer time"),
  /** KV transfers that failed (vLLM NIXL: worker transfers whose blocks were marked invalid). */
  KV_TRANSFER_FAILURES(Kind.COUNTER, "transfers", "failed KV transfers"),
  /** Allocation to eviction of the KV blocks vLLM samples ({@code --kv-cache-metrics}). */
  KV_BLOCK_LIFETIME(Kind.HISTOGRAM, "seconds", "KV-block lifetime"),
  /** Last access to eviction of the sampled KV blocks. */
  KV_BLOCK_IDLE_BEFORE_EVICT(Kind.HISTOGRAM, "seconds", "KV-block idle time before eviction"),
  /** Time between consecutive accesses of a sampled KV block (its reuse). */
  KV_BLOCK_REUSE_GAP(Kind.HISTOGRAM, "seconds", "KV-block reuse gap"),
  /**
   * Prompt tokens a KV-offload layer was asked for at lookup (LMCache {@code num_lookup_tokens}):
   * the denominator of its hit rate.
   */
  KV_OFFLOAD_LOOKUP_TOKENS(Kind.COUNTER, "tokens", "KV-offload lookup tokens"),
  /** Of those, the tokens the offload layer held (LMCache {@code num_lookup_hits}). */
  KV_OFFLOAD_LOOKUP_HITS(Kind.COUNTER, "tokens", "KV-offload lookup hits"),
  /** Tokens the engine asked the offload layer to load back (LMCache retrieve requests). */
  KV_OFFLOAD_REQUESTED_TOKENS(Kind.COUNTER, "tokens", "KV-offload tokens requested"),
  /** Tokens the offload layer loaded back into the engine (LMCache {@code num_hit_tokens}). */
  KV_OFFLOAD_RETRIEVED_TOKENS(Kind.COUNTER, "tokens", "KV-offload tokens retrieved"),
  /** Tokens the engine stored into the offload layer (LMCache {@code num_stored_tokens}). */
  KV_OFFLOAD_STORED_TOKENS(Kind.COUNTER, "tokens", "KV-offload tokens stored"),
  /**
   * NVLink traffic of the GPUs, read through {@code rate} of dcgm-exporter's all-lane bandwidth
   * counter (bytes, as the exporter's help of its per-lane field says).
   */
  GPU_NVLINK(Kind.GPU, "bytes_per_second", "NVLink bandwidth");

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
  private final String displayName;

  Signal(Kind kind, String unit, String displayName) {
    this.kind = kind;
    this.unit = unit;
    this.displayName = displayName;
  }

  public Kind kind() {
    return kind;
  }

  /** The unit after normalisation. */
  public String unit() {
    return unit;
  }

  /**
   * What a user reads for the signal in a sentence ({@code time per output token}): reasons name
   * the quantity, not the catalog's key.
   */
  public String displayName() {
    return displayName;
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
