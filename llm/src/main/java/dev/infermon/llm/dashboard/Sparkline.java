package dev.infermon.llm.dashboard;

/**
 * A series downsampled for a table's sparkline: at most {@code points} values, each the largest of
 * its run of steps (or the smallest, for a {@link Panel.Rank#LOW} panel), so that the peak (or the
 * dip) the table ranks by stays visible; NaN for a run with no value. Reached through {@link
 * PanelResult.SeriesData#sparkline}. Stateless.
 */
final class Sparkline {
  private Sparkline() {}

  /**
   * {@code values} in at most {@code points} runs of consecutive steps, the runs as even as the
   * count allows; the values themselves when there are no more than {@code points}.
   */
  static double[] of(double[] values, int points, Panel.Rank rank) {
    if (points <= 0) {
      throw new IllegalArgumentException("points must be positive, got " + points);
    }
    if (values.length <= points) {
      return values.clone();
    }
    double[] out = new double[points];
    for (int i = 0; i < points; i++) {
      int from = (int) ((long) i * values.length / points);
      int to = (int) ((long) (i + 1) * values.length / points);
      out[i] = rank.worst(values, from, to);
    }
    return out;
  }
}
