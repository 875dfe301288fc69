package dev.infermon.llm.report;

import java.util.OptionalDouble;

/**
 * One SLO's attainment over a report's window: the share of the window's requests that were good
 * ({@code 1 - errors / requests} from the SLI's bucket and counter gains over the whole window, so
 * every request weighs alike), against its objective. Immutable.
 *
 * @param name the SLO's name ({@code llm.slos}), or {@code <model>-<sli>} for the alert pack's
 * @param sli {@code ttft}, {@code tpot}, {@code itl}, {@code e2e} or {@code success}
 * @param source {@code llm.slos}, or {@code llm.alerts} for an objective derived from the alert
 *     pack's thresholds when the model has no SLO of its own
 * @param objective the share of good requests wanted
 * @param thresholdSeconds the latency a good request stays within; NaN for {@code success}
 * @param attainment the share that was good; empty with {@link #reason}
 * @param reason why there is no attainment; empty with one
 */
public record SloAttainment(
    String name,
    String sli,
    String source,
    double objective,
    double thresholdSeconds,
    OptionalDouble attainment,
    String reason) {
  /** Validates: exactly one of an attainment and a reason. */
  public SloAttainment {
    if (name == null || sli == null || source == null || reason == null) {
      throw new IllegalArgumentException("name, sli, source and reason must not be null");
    }
    if (attainment.isPresent() == !reason.isEmpty()) {
      throw new IllegalArgumentException("an attainment or a reason, not both or neither");
    }
  }

  /** Whether the attainment reached the objective; false without one. */
  public boolean met() {
    return attainment.isPresent() && attainment.getAsDouble() >= objective;
  }
}
