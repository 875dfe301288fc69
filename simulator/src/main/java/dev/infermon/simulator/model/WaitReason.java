package dev.infermon.simulator.model;

/**
 * Why a request is waiting, as vLLM's {@code num_requests_waiting_by_reason} splits it: {@code
 * capacity} (no room in the batch or the KV cache) or {@code deferred} (held back by a transient
 * constraint such as the LoRA budget, whatever the free capacity).
 */
public enum WaitReason {
  CAPACITY,
  DEFERRED
}
