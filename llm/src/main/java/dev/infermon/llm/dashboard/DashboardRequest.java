package dev.infermon.llm.dashboard;

import java.util.List;

/**
 * What to render.
 *
 * @param filters the filters
 * @param quantile the selected quantile, 0.5 to 0.99
 * @param startMs range start
 * @param endMs range end
 * @param stepMs resolution
 * @param window the rate window ({@code 5m})
 * @param panels panel ids to render; empty for all
 */
public record DashboardRequest(
    Filters filters,
    double quantile,
    long startMs,
    long endMs,
    long stepMs,
    String window,
    List<String> panels) {
  /** Validates; names the bad value. */
  public DashboardRequest {
    if (filters == null) {
      throw new IllegalArgumentException("filters must not be null");
    }
    if (!(quantile >= 0.5 && quantile <= 0.99)) {
      throw new IllegalArgumentException("quantile must be between 0.5 and 0.99, got " + quantile);
    }
    if (stepMs <= 0 || endMs < startMs) {
      throw new IllegalArgumentException(
          "need start <= end and step > 0, got start="
              + startMs
              + " end="
              + endMs
              + " step="
              + stepMs);
    }
    if (window == null || !window.matches("[0-9]+[smhd]")) {
      throw new IllegalArgumentException("window must be a duration like 5m, got " + window);
    }
    panels = List.copyOf(panels);
  }

  /** All panels over {@code [start, end]} with the defaults: p95, 5m windows, 60 points at most. */
  public static DashboardRequest of(Filters filters, long startMs, long endMs) {
    long step = Math.max(15_000, (endMs - startMs) / 60);
    return new DashboardRequest(filters, 0.95, startMs, endMs, step, "5m", List.of());
  }
}
