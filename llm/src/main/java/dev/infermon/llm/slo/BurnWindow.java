package dev.infermon.llm.slo;

import java.time.Duration;
import java.util.List;

/**
 * One multi-window burn-rate alert: fires when the error rate over both the long and the short
 * window exceeds {@code factor} times the error budget's rate. The four rows are the Google SRE
 * workbook's recommendation for a 30-day budget ("Alerting on SLOs", table 5-8: 2% of the budget in
 * 1 h and 5% in 6 h page; 10% in 3 days tickets), with the 1 d / 2 h ticket row the workbook's
 * table also lists for slower burns. The short window (1/12 of the long one) makes the alert stop
 * soon after the burn does.
 *
 * @param severity {@code page} or {@code ticket}
 * @param factor the burn rate: how many times faster than "exactly the budget over the period"
 * @param longWindow the window that makes the alert significant
 * @param shortWindow the window that makes it reset quickly
 */
public record BurnWindow(
    String severity, double factor, Duration longWindow, Duration shortWindow) {
  /** Page at 14.4× over 1 h and 6× over 6 h; ticket at 3× over 1 d and 1× over 3 d. */
  public static final List<BurnWindow> DEFAULT =
      List.of(
          new BurnWindow("page", 14.4, Duration.ofHours(1), Duration.ofMinutes(5)),
          new BurnWindow("page", 6, Duration.ofHours(6), Duration.ofMinutes(30)),
          new BurnWindow("ticket", 3, Duration.ofDays(1), Duration.ofHours(2)),
          new BurnWindow("ticket", 1, Duration.ofDays(3), Duration.ofHours(6)));

  public BurnWindow {
    if (!(factor > 0) || longWindow.compareTo(shortWindow) <= 0) {
      throw new IllegalArgumentException(
          "a burn window needs a positive factor and a long window longer than the short one");
    }
  }
}
