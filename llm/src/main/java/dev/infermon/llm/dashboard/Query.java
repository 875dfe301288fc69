package dev.infermon.llm.dashboard;

/**
 * One line (or set of lines) of a panel.
 *
 * @param legend the legend, in Grafana's {@code {{label}}} notation
 * @param measure what it computes
 */
public record Query(String legend, Measure measure) {
  public Query {
    if (legend == null || measure == null) {
      throw new IllegalArgumentException("a query needs a legend and a measure");
    }
  }
}
