package dev.infermon.llm.diagnosis;

import java.util.EnumSet;
import java.util.Set;

/**
 * The states diagnosis can name, each with a stable id (docs/diagnosis.md has one section each) and
 * the symptoms it explains: a symptom seen with no state that explains it on the same pod or model
 * becomes {@link #CAUSE_NOT_FOUND}. This enum's order is the ranking of the states, defined here
 * only (docs/diagnosis.md's table follows it, the other places link to it): an alert's cause is the
 * first state that explains its symptom there. {@link #SATURATED} comes before {@link
 * #KV_PRESSURE}, because under overload the batch fills until the KV cache is full too, so both are
 * found on the same pods and more capacity is the answer; a KV-bound batch alone swings below its
 * ceiling and is named {@code kv-pressure}.
 */
public enum State {
  SATURATED(
      "saturated",
      "running requests pinned at the batch limit while requests queue",
      Symptom.TTFT_HIGH,
      Symptom.QUEUED_WHILE_PREEMPTING,
      Symptom.ITL_HIGH),
  KV_PRESSURE(
      "kv-pressure",
      "KV cache above 90% with preemptions",
      Symptom.TTFT_HIGH,
      Symptom.QUEUED_WHILE_PREEMPTING,
      Symptom.ITL_HIGH),
  DEFERRED_BY_CONFIG(
      "deferred-by-config",
      "requests wait mostly as deferred (LoRA slots, KV transfer budget)",
      Symptom.TTFT_HIGH,
      Symptom.QUEUED_WHILE_PREEMPTING),
  IDLE_GPU_LONG_QUEUE(
      "idle-gpu-long-queue",
      "a long queue while the GPU is mostly idle (batch or KV settings)",
      Symptom.TTFT_HIGH,
      Symptom.QUEUED_WHILE_PREEMPTING),
  PREFILL_BOUND(
      "prefill-bound",
      "the first token is slow without a queue: long prompts, prefill time, few prefix-cache hits",
      Symptom.TTFT_HIGH),
  DECODE_BOUND(
      "decode-bound",
      "tokens stream slowly: a large batch or speculative drafts mostly rejected",
      Symptom.ITL_HIGH),
  SLOW_POD(
      "slow-pod",
      "one pod's latency stands out against its peers serving the same model",
      Symptom.TTFT_HIGH,
      Symptom.ITL_HIGH),
  ASLEEP(
      "asleep",
      "the engine sleeps (vLLM sleep mode): it admits nothing and leaves its GPU idle by choice;"
          + " the requests in flight when it fell asleep end as aborted",
      Symptom.FAILURES_HIGH),
  ERRORS_RISING(
      "errors-rising", "a rising share of requests ends in error or abort", Symptom.FAILURES_HIGH),
  GPU_MEMORY_NEAR_FULL("gpu-memory-near-full", "GPU memory almost full"),
  PD_BOTTLENECK(
      "pd-bottleneck",
      "one side of a prefill/decode deployment holds the queue",
      Symptom.TTFT_HIGH,
      Symptom.QUEUED_WHILE_PREEMPTING),
  RESTARTED("restarted", "the engine restarted: counters reset, the target was down"),
  CAUSE_NOT_FOUND(
      "cause-not-found",
      "a symptom is there and no state explains it from the signals that could be read");

  private final String id;
  private final String description;
  private final Set<Symptom> explains;

  State(String id, String description, Symptom... explains) {
    this.id = id;
    this.description = description;
    EnumSet<Symptom> set = EnumSet.noneOf(Symptom.class);
    set.addAll(java.util.Arrays.asList(explains));
    this.explains = java.util.Collections.unmodifiableSet(set);
  }

  public String id() {
    return id;
  }

  public String description() {
    return description;
  }

  /** The symptoms this state explains on the pod or model that shows them, in symptom order. */
  public Set<Symptom> explains() {
    return explains;
  }
}
