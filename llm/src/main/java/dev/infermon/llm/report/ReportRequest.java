package dev.infermon.llm.report;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What {@link ReportService#report} is asked: a window ending at a time, optionally one model.
 * Anything left out is the service's default (the end now, the window {@link
 * ReportService#DEFAULT_WINDOW}, {@link ReportService#DEFAULT_WORST} worst periods). Immutable.
 *
 * @param endMs the window's end, epoch milliseconds
 * @param windowMs how far back from the end the report reads
 * @param model only this {@code model_name}; empty for every model with samples in the window
 * @param worst how many worst periods per model
 */
public record ReportRequest(
    OptionalLong endMs, OptionalLong windowMs, String model, OptionalInt worst) {
  /** Every model over the default window up to now. */
  public static final ReportRequest DEFAULT =
      new ReportRequest(OptionalLong.empty(), OptionalLong.empty(), "", OptionalInt.empty());

  /** Refuses nulls; a blank model is no filter. */
  public ReportRequest {
    if (endMs == null || windowMs == null || model == null || worst == null) {
      throw new IllegalArgumentException("give empty optionals and \"\" for what is left out");
    }
    model = model.strip();
  }

  /** The window of {@code windowMs} ending at {@code endMs}, for {@code model} ("" for all). */
  public static ReportRequest of(long endMs, long windowMs, String model) {
    return new ReportRequest(
        OptionalLong.of(endMs), OptionalLong.of(windowMs), model, OptionalInt.empty());
  }
}
