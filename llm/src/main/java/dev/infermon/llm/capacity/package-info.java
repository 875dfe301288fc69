/**
 * Capacity headroom: per model and per pod, how much more load it takes before the causal chain
 * starts (KV usage at its ceiling), estimated from the stored history, and when that happens at the
 * current trend. {@link dev.infermon.llm.capacity.CapacityService} is the front door; the method
 * and its limits are in docs/capacity.md.
 */
package dev.infermon.llm.capacity;
