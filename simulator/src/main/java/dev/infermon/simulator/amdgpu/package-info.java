/**
 * AMD's device-metrics-exporter as the simulator exposes it: one exporter per MI300X node whose
 * GPUs follow the activity of the inference pods they are attributed to ({@code pod}, {@code
 * namespace}, {@code container} labels, empty on an idle GPU) through the same GPU activity model
 * as the simulated dcgm-exporter. Family names, HELP texts, label names and units come from
 * ROCm/device-metrics-exporter's source (llm catalog amdgpu.yaml); the page is client_golang's. Not
 * thread-safe; the fleet serialises access.
 */
package dev.infermon.simulator.amdgpu;
