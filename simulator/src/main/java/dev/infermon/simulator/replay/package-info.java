/**
 * Real {@code /metrics} captures served as live targets: {@link
 * dev.infermon.simulator.replay.Capture} reads a page once with textparse and renders it with its
 * counters, histograms and summary counts advanced by one factor (gauges as captured, cut last
 * lines dropped); {@link dev.infermon.simulator.replay.ReplayTarget} gives it the target labels
 * discovery would and an uptime that sets its rates; {@link
 * dev.infermon.simulator.replay.ReplayFleet} turns time into factors. {@code http.ReplayServer}
 * serves a fleet on 127.0.0.1.
 */
package dev.infermon.simulator.replay;
