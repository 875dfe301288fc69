package dev.infermon.llm.capacity;

import java.util.List;
import java.util.OptionalDouble;

/**
 * How much more load one pod, or one model across its pods, takes before its KV cache reaches its
 * ceiling, and when that happens at the current trend (docs/capacity.md). Without an estimate,
 * {@link #reason()} says why and the estimate's fields are empty. Immutable.
 *
 * @param model {@code model_name}
 * @param namespace the namespace
 * @param pod the pod; empty for a model
 * @param currentRate requests per second now (the last {@link CapacityService#CURRENT_MS})
 * @param ceilingRate requests per second at which KV usage reaches {@code ceilingUsage}
 * @param ceilingLow the lower end of the ceiling's statistical interval (two standard errors)
 * @param ceilingHigh the upper end of that interval
 * @param headroom {@code ceilingRate / currentRate}
 * @param ceilingUsage the mean KV usage at the ceiling: where its peaks reach the full cache, or
 *     the lowest mean usage at which the history preempted
 * @param maxObservedUsage the highest mean KV usage of a step in the history fitted
 * @param trendPerHour the request rate's linear trend over the look-back, requests per second per
 *     hour
 * @param secondsToCeiling when the current rate, rising at its trend, reaches the ceiling (0 when
 *     already there)
 * @param timeReason why there is no time to the ceiling (a flat or falling trend); empty with one
 * @param points the steps of the history fitted
 * @param reason why there is no estimate; empty with one
 * @param limits what the estimate assumes and how far it extrapolates, one line each
 */
public record Headroom(
    String model,
    String namespace,
    String pod,
    OptionalDouble currentRate,
    OptionalDouble ceilingRate,
    OptionalDouble ceilingLow,
    OptionalDouble ceilingHigh,
    OptionalDouble headroom,
    OptionalDouble ceilingUsage,
    OptionalDouble maxObservedUsage,
    OptionalDouble trendPerHour,
    OptionalDouble secondsToCeiling,
    String timeReason,
    int points,
    String reason,
    List<String> limits) {

  /** Validates and copies. */
  public Headroom {
    if (model == null || namespace == null || pod == null || timeReason == null) {
      throw new IllegalArgumentException("model, namespace, pod and timeReason must not be null");
    }
    if (reason == null) {
      throw new IllegalArgumentException("reason must not be null (empty with an estimate)");
    }
    if (reason.isEmpty() == ceilingRate.isEmpty()) {
      throw new IllegalArgumentException("exactly one of a ceiling and a reason, got " + reason);
    }
    limits = List.copyOf(limits);
  }

  /** No estimate, for {@code reason}. */
  static Headroom none(
      String model, String namespace, String pod, OptionalDouble current, int points, String why) {
    OptionalDouble e = OptionalDouble.empty();
    return new Headroom(
        model, namespace, pod, current, e, e, e, e, e, e, e, e, "", points, why, List.of());
  }

  /** Whether there is an estimate. */
  public boolean estimated() {
    return reason.isEmpty();
  }
}
