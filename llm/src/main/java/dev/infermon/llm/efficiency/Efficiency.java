package dev.infermon.llm.efficiency;

import java.util.List;

/**
 * The answer of {@link EfficiencyService#compute}: the figures per model, per workload and per pod
 * over one window. Immutable.
 *
 * @param startMs the window's start (widened to a whole number of steps)
 * @param endMs the window's end
 * @param stepMs how often GPUs and running requests were sampled
 * @param currency the currency of the cost figures ({@code llm.cost.currency})
 * @param models per {@code model_name}, sorted
 * @param workloads per {@code namespace} and {@code workload_name}, sorted
 * @param pods per pod, sorted
 */
public record Efficiency(
    long startMs,
    long endMs,
    long stepMs,
    String currency,
    List<Group> models,
    List<Group> workloads,
    List<Group> pods) {
  public Efficiency {
    models = List.copyOf(models);
    workloads = List.copyOf(workloads);
    pods = List.copyOf(pods);
  }
}
