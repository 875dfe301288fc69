package dev.infermon.llm.efficiency;

import java.util.OptionalLong;

/**
 * What {@link EfficiencyService#compute} is asked: a window and optional scope. Anything left out
 * is the service's default (the end now, the window {@link EfficiencyService#DEFAULT_WINDOW}, the
 * step {@link EfficiencyService#step(long)}). Immutable.
 *
 * @param startMs the window's start, epoch milliseconds
 * @param endMs the window's end
 * @param stepMs how often the GPUs and running requests are sampled; the window is widened at its
 *     start to a whole number of steps
 * @param model only this {@code model_name}; empty for every model
 * @param workload only this {@code workload_name}; empty for every workload
 */
public record EfficiencyRequest(
    OptionalLong startMs, OptionalLong endMs, OptionalLong stepMs, String model, String workload) {
  /** The default window ending now, every model and workload. */
  public static final EfficiencyRequest DEFAULT =
      new EfficiencyRequest(
          OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), "", "");

  public EfficiencyRequest {
    if (model == null || workload == null) {
      throw new IllegalArgumentException("model and workload are strings (empty: all)");
    }
  }

  /** The window [start, end], every model and workload, the default step. */
  public static EfficiencyRequest of(long startMs, long endMs) {
    return new EfficiencyRequest(
        OptionalLong.of(startMs), OptionalLong.of(endMs), OptionalLong.empty(), "", "");
  }
}
