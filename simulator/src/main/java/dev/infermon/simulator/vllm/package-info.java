/**
 * vLLM as the simulator exposes it: what an engine core counts ({@link
 * dev.infermon.simulator.vllm.VllmMetrics}), its bucket bounds, and its {@code /metrics} page for
 * three releases ({@link dev.infermon.simulator.vllm.VllmRelease}): the current V1 page (the
 * 2026-09 capture's families), 0.11 (the last release with the deprecated {@code
 * time_per_output_token} histogram) and the V0 page of 0.4.3. Not thread-safe; the pod serialises
 * access.
 */
package dev.infermon.simulator.vllm;
