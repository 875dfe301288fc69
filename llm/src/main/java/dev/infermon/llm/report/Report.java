package dev.infermon.llm.report;

import java.util.List;

/**
 * The answer of {@link ReportService#report}: per model, what it served, how it met its SLOs, its
 * worst periods with their diagnosis, its capacity headroom and its cost, over one window.
 * Immutable.
 *
 * @param startMs the window's start (widened to a whole number of periods)
 * @param endMs the window's end
 * @param periodMs the length of the periods the window is cut into (peak rate, worst periods)
 * @param currency the currency of the cost figures ({@code llm.cost.currency})
 * @param models one per {@code model_name}, in name order
 */
public record Report(
    long startMs, long endMs, long periodMs, String currency, List<ModelReport> models) {
  public Report {
    models = List.copyOf(models);
  }
}
