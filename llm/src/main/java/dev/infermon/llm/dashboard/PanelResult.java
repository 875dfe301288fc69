package dev.infermon.llm.dashboard;

import java.util.List;
import java.util.Map;

/**
 * One panel as the API returns it: the spec's identity and unit, each query with its PromQL and
 * data, and — when it has no data, or some engine in scope lacks the signal — why.
 *
 * @param panel the spec
 * @param queries one per query of the spec
 * @param status whether there is data
 * @param reasons why data is missing (empty when there is all of it)
 */
public record PanelResult(
    Panel panel, List<QueryData> queries, Status status, List<EmptyReason> reasons) {
  /** Whether the panel has data. */
  public enum Status {
    OK,
    /** Data from some engines; the reasons say what the others lack. */
    PARTIAL,
    EMPTY
  }

  public PanelResult {
    queries = List.copyOf(queries);
    reasons = List.copyOf(reasons);
  }

  /**
   * One query's result.
   *
   * @param legend the legend template
   * @param promql the compiled query, or null when no engine present has the signal
   * @param series the series returned: all of them, or the request's {@code top} worst first
   * @param warnings the backend's annotations
   * @param total how many series the query returned before a cut to the request's {@code top}
   *     ({@link DashboardRequest#top}); the size of {@code series} when nothing was cut
   */
  public record QueryData(
      String legend, String promql, List<SeriesData> series, List<String> warnings, int total) {
    public QueryData {
      series = List.copyOf(series);
      warnings = List.copyOf(warnings);
      if (total < series.size()) {
        throw new IllegalArgumentException(
            "total must count at least the " + series.size() + " series kept, got " + total);
      }
    }

    /** Every series the query returned, none cut. */
    public QueryData(String legend, String promql, List<SeriesData> series, List<String> warnings) {
      this(legend, promql, series, warnings, series.size());
    }

    /** Whether a cut left series out. */
    public boolean cut() {
      return total > series.size();
    }
  }

  /**
   * One returned series.
   *
   * @param labels its labels
   * @param timestamps sample times, ms
   * @param values sample values (NaN where a ratio had no denominator)
   */
  public record SeriesData(Map<String, String> labels, long[] timestamps, double[] values) {
    /** The points a table's sparkline gets: a few dozen, enough for the shape of six hours. */
    public static final int SPARKLINE_POINTS = 40;

    public SeriesData {
      labels = Map.copyOf(labels);
      timestamps = timestamps.clone();
      values = values.clone();
    }

    @Override
    public long[] timestamps() {
      return timestamps.clone();
    }

    @Override
    public double[] values() {
      return values.clone();
    }

    /** Whether any value is a number. */
    public boolean hasValues() {
      for (double v : values) {
        if (!Double.isNaN(v)) {
          return true;
        }
      }
      return false;
    }

    /**
     * The values in at most {@code points} runs of consecutive steps, each run's largest value
     * ({@link Panel.Rank#HIGH}) or smallest ({@link Panel.Rank#LOW}), NaN for a run without one: a
     * table's sparkline, which keeps the peak (or dip) the panel ranks by.
     */
    public double[] sparkline(int points, Panel.Rank rank) {
      return Sparkline.of(values, points, rank);
    }

    /** The last non-NaN value, or NaN. */
    public double last() {
      for (int i = values.length - 1; i >= 0; i--) {
        if (!Double.isNaN(values[i])) {
          return values[i];
        }
      }
      return Double.NaN;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof SeriesData
          && labels.equals(((SeriesData) o).labels)
          && java.util.Arrays.equals(timestamps, ((SeriesData) o).timestamps)
          && java.util.Arrays.equals(values, ((SeriesData) o).values);
    }

    @Override
    public int hashCode() {
      return labels.hashCode() * 31 + java.util.Arrays.hashCode(values);
    }

    @Override
    public String toString() {
      return labels + " last=" + last();
    }
  }
}
