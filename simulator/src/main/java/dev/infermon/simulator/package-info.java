/**
 * A simulated LLM inference fleet for tests, benchmarks and the demo: vLLM pods (the current V1
 * page, an older release, data-parallel engines), SGLang pods (TP ranks, the gateway's {@code
 * sglang_} spelling), a vLLM and an SGLang prefill/decode pair, and one dcgm-exporter per node
 * whose GPUs follow the pods they are attributed to; optionally a router in front of the pods
 * ({@link dev.infermon.simulator.RouterKind}, pages in {@code router}). Pages are driven by a
 * queueing model ({@code model}) and written byte for byte as the real exporters write them ({@code
 * vllm}, {@code sglang}, {@code dcgm}, {@code text}); {@code http} serves them.
 *
 * <p>Entry points: {@link dev.infermon.simulator.FleetConfig} (what to simulate), {@link
 * dev.infermon.simulator.Fleet} (simulated time, pages, scenarios; thread-safe), {@link
 * dev.infermon.simulator.Ticker} (wall-clock time) and {@link
 * dev.infermon.simulator.http.FleetServer}. Real captures are replayed as live targets by {@code
 * replay} and {@link dev.infermon.simulator.http.ReplayServer}.
 */
package dev.infermon.simulator;
