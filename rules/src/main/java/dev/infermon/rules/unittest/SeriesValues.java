package dev.infermon.rules.unittest;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.promql.parser.PromqlParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The series notation of promtool's {@code input_series} (Prometheus's {@code ParseSeriesDesc}):
 * {@code a+bxn} is n+1 values from a stepping by b, {@code axn} n+1 copies, {@code _} one missing
 * value, {@code _xn} n missing values, {@code stale} a staleness marker. Missing values are {@code
 * null}. Stateless.
 *
 * <p>The promqltest runner in the promql module has the same notation but keeps it package-private;
 * this copy covers the float notation only (no native histograms).
 */
final class SeriesValues {
  private SeriesValues() {}

  /** The labels of {@code metric{a="b"}}: equality matchers only. */
  static Labels labels(String series) {
    if (series.trim().isEmpty() || series.trim().equals("{}")) {
      return Labels.EMPTY;
    }
    Labels.Builder b = Labels.builder();
    for (Matcher m : PromqlParser.parseMetricSelector(series)) {
      if (m.type() != MatchType.EQUAL) {
        throw new IllegalArgumentException("only equality matchers describe a series: " + series);
      }
      b.set(m.name(), m.value());
    }
    return b.build();
  }

  /** The values, one per step; null where the notation leaves a gap. */
  static List<Double> values(String text) {
    List<Double> out = new ArrayList<>();
    for (String token : text.trim().split("\\s+")) {
      if (token.isEmpty()) {
        continue;
      }
      item(token, out);
    }
    return out;
  }

  private static void item(String token, List<Double> out) {
    if (token.equals("_")) {
      out.add(null);
      return;
    }
    if (token.startsWith("_x")) {
      long n = count(token.substring(2), token);
      for (long i = 0; i < n; i++) {
        out.add(null);
      }
      return;
    }
    int[] pos = {0};
    double start = number(token, pos);
    if (pos[0] == token.length()) {
      out.add(start);
      return;
    }
    double inc = 0;
    char c = token.charAt(pos[0]);
    if (c == '+' || c == '-') {
      inc = number(token, pos);
    }
    if (pos[0] >= token.length() || token.charAt(pos[0]) != 'x') {
      throw new IllegalArgumentException("bad series value: " + token);
    }
    long times = count(token.substring(pos[0] + 1), token);
    double v = start;
    out.add(v);
    for (long i = 1; i <= times; i++) {
      v += inc;
      out.add(v);
    }
  }

  private static long count(String s, String token) {
    try {
      long n = Long.parseLong(s);
      if (n < 0 || n > 10_000_000) {
        throw new IllegalArgumentException("bad repetition count in " + token);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad series value: " + token);
    }
  }

  /** A signed number, {@code Inf}, {@code NaN} or {@code stale} at {@code pos}. */
  private static double number(String t, int[] pos) {
    int i = pos[0];
    boolean neg = false;
    if (i < t.length() && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
      neg = t.charAt(i) == '-';
      i++;
    }
    String rest = t.substring(i).toLowerCase(Locale.ROOT);
    double v;
    if (rest.startsWith("stale")) {
      pos[0] = i + 5;
      return StaleNaN.VALUE;
    } else if (rest.startsWith("inf")) {
      i += 3;
      v = Double.POSITIVE_INFINITY;
    } else if (rest.startsWith("nan")) {
      i += 3;
      v = Double.NaN;
    } else {
      int start = i;
      while (i < t.length()) {
        char c = t.charAt(i);
        boolean expSign =
            (c == '+' || c == '-')
                && i > start
                && (t.charAt(i - 1) == 'e' || t.charAt(i - 1) == 'E');
        if (Character.isDigit(c) || c == '.' || c == 'e' || c == 'E' || expSign) {
          i++;
        } else {
          break;
        }
      }
      if (i == start) {
        throw new IllegalArgumentException("bad series value: " + t);
      }
      v = Double.parseDouble(t.substring(start, i));
    }
    pos[0] = i;
    return neg ? -v : v;
  }
}
