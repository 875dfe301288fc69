/**
 * NVIDIA NIM for LLMs' page: {@link dev.infermon.simulator.nim.NimPage} writes what a vLLM V0
 * engine counted ({@link dev.infermon.simulator.vllm.VllmMetrics}) as NIM exposes it at {@code
 * /v1/metrics}: the subset of vLLM's V0 families NIM serves, without prefix, and NIM's own
 * families, in the layout of the 2024-10 capture.
 */
package dev.infermon.simulator.nim;
