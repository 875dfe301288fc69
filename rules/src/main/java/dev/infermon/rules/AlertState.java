package dev.infermon.rules;

import java.util.Locale;

/** The state of an alert, or of an alerting rule (the highest state of its alerts). */
public enum AlertState {
  /** A rule that has not been evaluated yet. */
  UNKNOWN,
  INACTIVE,
  PENDING,
  FIRING;

  /** {@code inactive}, {@code pending}, ... as the API and the {@code alertstate} label say it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
