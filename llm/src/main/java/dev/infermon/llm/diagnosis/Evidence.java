package dev.infermon.llm.diagnosis;

/**
 * One fact a state rests on: what was measured (the PromQL that gives it), for which series, the
 * value and when. Immutable.
 *
 * @param signal what the value is ({@code requests waiting}, {@code KV usage})
 * @param query the PromQL it comes from
 * @param series the series, in Prometheus notation
 * @param value the value
 * @param timeMs when (ms since the epoch); for a summary over the window, its end
 * @param note how the value reads ({@code max over the window}, {@code 3.1x the peers' median})
 */
public record Evidence(
    String signal, String query, String series, double value, long timeMs, String note) {
  public Evidence {
    if (signal == null || query == null || series == null || note == null) {
      throw new IllegalArgumentException("evidence needs a signal, query, series and note");
    }
  }
}
