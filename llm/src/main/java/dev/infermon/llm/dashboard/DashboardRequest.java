package dev.infermon.llm.dashboard;

import java.util.List;
import java.util.OptionalInt;

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
 * @param top per query of a per-pod or per-GPU panel, how many series to keep, the worst first
 *     ({@link Panel#rank}); empty for all. Model-level and fleet-level panels are never cut.
 */
public record DashboardRequest(
    Filters filters,
    double quantile,
    long startMs,
    long endMs,
    long stepMs,
    String window,
    List<String> panels,
    OptionalInt top) {
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
    if (top == null) {
      throw new IllegalArgumentException("top must not be null (empty for all series)");
    }
    if (top.isPresent() && top.getAsInt() <= 0) {
      throw new IllegalArgumentException(
          "top must be a positive number of series, got " + top.getAsInt());
    }
  }

  /** Every series of every panel ({@link #top} empty). */
  public DashboardRequest(
      Filters filters,
      double quantile,
      long startMs,
      long endMs,
      long stepMs,
      String window,
      List<String> panels) {
    this(filters, quantile, startMs, endMs, stepMs, window, panels, OptionalInt.empty());
  }

  /** This request with per-pod and per-GPU panels cut to their {@code top} worst series. */
  public DashboardRequest withTop(int top) {
    return new DashboardRequest(
        filters, quantile, startMs, endMs, stepMs, window, panels, OptionalInt.of(top));
  }

  /** All panels over {@code [start, end]} with the defaults: p95, 5m windows, 60 points at most. */
  public static DashboardRequest of(Filters filters, long startMs, long endMs) {
    long step = Math.max(15_000, (endMs - startMs) / 60);
    return new DashboardRequest(filters, 0.95, startMs, endMs, step, "5m", List.of());
  }
}
