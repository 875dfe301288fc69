/**
 * dcgm-exporter as the simulator exposes it: one exporter per node whose GPUs follow the activity
 * of the inference pods they are attributed to ({@code pod}, {@code namespace}, {@code container}
 * labels) or sit idle unattributed. Family names, HELP texts and label order come from the real
 * pages in ../shared/fixtures/dcgm (GPU Operator v25.10 layout); values refresh every 30 s as the
 * exporter's default collect interval does. Not thread-safe; the fleet serialises access.
 */
package dev.infermon.simulator.dcgm;
