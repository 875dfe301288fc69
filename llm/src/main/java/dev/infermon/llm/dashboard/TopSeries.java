package dev.infermon.llm.dashboard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * The cut of a per-pod or per-GPU query's series to a request's {@code top} (docs/rationale.md,
 * "Per-pod panels: the worst pods, after evaluation"): the series ranked by their largest value
 * over the window, highest first, or for a {@link Panel.Rank#LOW} panel by their smallest, lowest
 * first; a series with no value last, ties by labels so that a refresh keeps the same lines. Made
 * after the query is evaluated (the query and its stored answers stay those of the whole fleet);
 * exact. Stateless.
 */
final class TopSeries {
  private TopSeries() {}

  /** The {@code top} worst of {@code series}, worst first; all of them, in order, when as many. */
  static List<PanelResult.SeriesData> cut(
      List<PanelResult.SeriesData> series, int top, Panel.Rank rank) {
    if (top <= 0) {
      throw new IllegalArgumentException("top must be positive, got " + top);
    }
    if (series.size() <= top) {
      return List.copyOf(series);
    }
    Comparator<PanelResult.SeriesData> byValue = Comparator.comparingDouble(s -> score(s, rank));
    List<PanelResult.SeriesData> sorted = new ArrayList<>(series);
    sorted.sort(
        Comparator.comparing((PanelResult.SeriesData s) -> !s.hasValues())
            .thenComparing(rank == Panel.Rank.HIGH ? byValue.reversed() : byValue)
            .thenComparing(s -> new TreeMap<>(s.labels()).toString()));
    return List.copyOf(sorted.subList(0, top));
  }

  /** The series' largest value (HIGH) or smallest (LOW), NaN ignored; NaN when it has none. */
  static double score(PanelResult.SeriesData s, Panel.Rank rank) {
    double best = Double.NaN;
    for (double v : s.values()) {
      if (Double.isNaN(v)) {
        continue;
      }
      if (Double.isNaN(best) || (rank == Panel.Rank.HIGH ? v > best : v < best)) {
        best = v;
      }
    }
    return best;
  }
}
