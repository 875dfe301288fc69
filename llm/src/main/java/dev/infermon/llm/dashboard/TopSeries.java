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
    // each series' score and tie-break key once, not per comparison (a 1,000-pod query sorts
    // thousands of series of hundreds of steps)
    List<Ranked> ranked = new ArrayList<>(series.size());
    for (PanelResult.SeriesData s : series) {
      ranked.add(new Ranked(s, score(s, rank), new TreeMap<>(s.labels()).toString()));
    }
    Comparator<Ranked> byValue = Comparator.comparingDouble(Ranked::score);
    ranked.sort(
        Comparator.comparing((Ranked r) -> Double.isNaN(r.score()))
            .thenComparing(rank == Panel.Rank.HIGH ? byValue.reversed() : byValue)
            .thenComparing(Ranked::key));
    List<PanelResult.SeriesData> out = new ArrayList<>(top);
    for (Ranked r : ranked.subList(0, top)) {
      out.add(r.series());
    }
    return List.copyOf(out);
  }

  private record Ranked(PanelResult.SeriesData series, double score, String key) {}

  /** The series' largest value (HIGH) or smallest (LOW), NaN ignored; NaN when it has none. */
  static double score(PanelResult.SeriesData s, Panel.Rank rank) {
    double[] v = s.values();
    return rank.worst(v, 0, v.length);
  }
}
