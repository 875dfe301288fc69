/**
 * The queueing model behind every simulated inference pod: seeded arrivals with a daily cycle and
 * bursts, prompt and output length distributions, continuous batching over a KV cache of fixed
 * capacity with prefix-cache hits, preemption, waiting by reason and finish reasons, and the GPU
 * activity that follows the batch.
 *
 * <p>Engine-neutral: the model reports what happens to an {@link
 * dev.infermon.simulator.model.EngineListener}, and each engine's metrics (package {@code metrics})
 * decide what to count and with which bucket bounds. Nothing here is thread-safe; the fleet
 * serialises access.
 */
package dev.infermon.simulator.model;
