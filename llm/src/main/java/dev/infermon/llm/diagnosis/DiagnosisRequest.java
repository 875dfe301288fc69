package dev.infermon.llm.diagnosis;

import java.util.OptionalLong;

/**
 * What to diagnose, as a caller gives it: each part may be left out, and {@link DiagnosisService}
 * fills it in (the end is now, the start is the end minus the window, the window {@link
 * DiagnosisService#DEFAULT_WINDOW}, the step {@link DiagnosisService#step}). Times and durations in
 * milliseconds. Immutable.
 *
 * @param startMs the window's start; when given, the window is ignored
 * @param endMs the window's end
 * @param windowMs how far back from the end to look
 * @param stepMs the resolution of the range queries
 */
public record DiagnosisRequest(
    OptionalLong startMs, OptionalLong endMs, OptionalLong windowMs, OptionalLong stepMs) {
  /** Everything by default: the last {@link DiagnosisService#DEFAULT_WINDOW} up to now. */
  public static final DiagnosisRequest DEFAULT =
      new DiagnosisRequest(
          OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());

  public DiagnosisRequest {
    if (startMs == null || endMs == null || windowMs == null || stepMs == null) {
      throw new IllegalArgumentException("give OptionalLong.empty() for a part left out, not null");
    }
  }

  /** Exactly {@code [startMs, endMs]} at {@code stepMs}. */
  public static DiagnosisRequest between(long startMs, long endMs, long stepMs) {
    return new DiagnosisRequest(
        OptionalLong.of(startMs),
        OptionalLong.of(endMs),
        OptionalLong.empty(),
        OptionalLong.of(stepMs));
  }
}
