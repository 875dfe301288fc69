package dev.infermon.llm.capacity;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * What to estimate; left out, the service's defaults apply. Immutable.
 *
 * @param model only this {@code model_name}
 * @param pod only this pod (its model's estimate is then over that pod alone)
 * @param lookbackMs how much history to fit ({@link CapacityService#DEFAULT_LOOKBACK})
 * @param endMs the end of that history (now)
 */
public record CapacityRequest(
    Optional<String> model, Optional<String> pod, OptionalLong lookbackMs, OptionalLong endMs) {
  /** Everything, over the default look-back up to now. */
  public static final CapacityRequest DEFAULT =
      new CapacityRequest(
          Optional.empty(), Optional.empty(), OptionalLong.empty(), OptionalLong.empty());

  /** Refuses nulls; blank names are no filter. */
  public CapacityRequest {
    if (model == null || pod == null || lookbackMs == null || endMs == null) {
      throw new IllegalArgumentException("use Optional.empty(), not null");
    }
    model = model.filter(s -> !s.isBlank());
    pod = pod.filter(s -> !s.isBlank());
  }
}
