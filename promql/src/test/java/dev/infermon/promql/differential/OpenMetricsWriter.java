package dev.infermon.promql.differential;

import dev.infermon.model.labels.Labels;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;

/**
 * Writes series as OpenMetrics text with explicit timestamps, the input of {@code promtool tsdb
 * create-blocks-from openmetrics}: one {@code # TYPE} line per family, then each series' samples in
 * time order (the backfiller appends per series and rejects out-of-order samples), then {@code #
 * EOF}. Timestamps are seconds with one decimal, as {@link DataSet#openMetricsSeconds} gives them.
 */
final class OpenMetricsWriter {
  private OpenMetricsWriter() {}

  /** Writes every sample of {@code data} whose time is before {@code beforeMs}. */
  static void write(DataSet data, long beforeMs, Writer out) throws IOException {
    for (DataSet.Family f : data.families()) {
      out.write("# TYPE " + f.name() + " " + f.type() + "\n");
      for (DataSet.SeriesData s : data.series()) {
        if (!s.family().equals(f)) {
          continue;
        }
        String prefix = seriesText(s.labels());
        for (int i = 0; i < s.t().length && s.t()[i] < beforeMs; i++) {
          out.write(prefix);
          out.write(' ');
          out.write(value(s.v()[i]));
          out.write(' ');
          out.write(seconds(s.t()[i]));
          out.write('\n');
        }
      }
    }
    out.write("# EOF\n");
  }

  /** {@code name{a="x",b="y"}}. */
  static String seriesText(Labels labels) {
    StringBuilder sb = new StringBuilder(labels.metricName());
    List<String> names = labels.names();
    boolean first = true;
    for (String n : names) {
      if (n.equals(Labels.METRIC_NAME)) {
        continue;
      }
      sb.append(first ? '{' : ',').append(n).append("=\"");
      escape(sb, labels.get(n));
      sb.append('"');
      first = false;
    }
    if (!first) {
      sb.append('}');
    }
    return sb.toString();
  }

  /** A value as Go's ParseFloat reads it back exactly. */
  static String value(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v); // shortest round-tripping digits; Go accepts the E exponent
  }

  private static String seconds(long ms) {
    // Every data-set timestamp came from a one-decimal second value, so this reproduces it.
    return String.format(Locale.ROOT, "%.1f", ms / 1000.0);
  }

  private static void escape(StringBuilder sb, String v) {
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c == '\\' || c == '"') {
        sb.append('\\').append(c);
      } else if (c == '\n') {
        sb.append("\\n");
      } else {
        sb.append(c);
      }
    }
  }
}
