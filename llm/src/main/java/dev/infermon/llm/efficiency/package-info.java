/**
 * Efficiency and cost per model, workload and pod over a window: generated tokens per GPU-second
 * and per joule, idle GPU time, and cost per million generated tokens from {@code llm.cost}'s
 * prices. Front door {@link dev.infermon.llm.efficiency.EfficiencyService}, which reads the
 * catalog's canonical signals through the dashboard's compiler, so every engine and spelling counts
 * alike; its answers are immutable values ({@link dev.infermon.llm.efficiency.Efficiency}, {@link
 * dev.infermon.llm.efficiency.Figure}: a value or why there is none) and their JSON ({@link
 * dev.infermon.llm.efficiency.EfficiencyJson}).
 */
package dev.infermon.llm.efficiency;
