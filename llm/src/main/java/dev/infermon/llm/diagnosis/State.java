package dev.infermon.llm.diagnosis;

/**
 * The states diagnosis can name, each with a stable id (docs/diagnosis.md has one section each).
 */
public enum State {
  SATURATED("saturated", "running requests pinned at the batch limit while the queue grows"),
  KV_PRESSURE("kv-pressure", "KV cache above 90% with preemptions"),
  DEFERRED_BY_CONFIG(
      "deferred-by-config", "requests wait mostly as deferred (LoRA slots, KV transfer budget)"),
  IDLE_GPU_LONG_QUEUE(
      "idle-gpu-long-queue", "a long queue while the GPU is mostly idle (batch or KV settings)"),
  SLOW_POD("slow-pod", "one pod's latency stands out against its peers serving the same model"),
  ERRORS_RISING("errors-rising", "a rising share of requests ends in error or abort"),
  GPU_MEMORY_NEAR_FULL("gpu-memory-near-full", "GPU memory almost full"),
  PD_BOTTLENECK("pd-bottleneck", "one side of a prefill/decode deployment holds the queue"),
  RESTARTED("restarted", "the engine restarted: counters reset, the target was down");

  private final String id;
  private final String description;

  State(String id, String description) {
    this.id = id;
    this.description = description;
  }

  public String id() {
    return id;
  }

  public String description() {
    return description;
  }
}
