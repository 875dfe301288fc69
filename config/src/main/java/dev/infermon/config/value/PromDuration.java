package dev.infermon.config.value;

import java.time.Duration;

/**
 * Prometheus's duration syntax: one or more {@code <integer><unit>} parts with units {@code y} (365
 * days), {@code w}, {@code d}, {@code h}, {@code m}, {@code s}, {@code ms}, each unit at most once
 * and from the largest to the smallest, for example {@code 1m30s} or {@code 1d}; {@code 0} alone is
 * allowed. Messages match {@code model.ParseDuration} in prometheus/common.
 */
public final class PromDuration {
  private static final String[] UNITS = {"y", "w", "d", "h", "m", "s", "ms"};
  private static final int EXACT_ONLY = 2; // y and w print only when they divide exactly
  private static final long[] MILLIS = {
    365L * 24 * 3600 * 1000,
    7L * 24 * 3600 * 1000,
    24L * 3600 * 1000,
    3600L * 1000,
    60L * 1000,
    1000L,
    1L
  };

  private PromDuration() {}

  /**
   * Parses a duration.
   *
   * @throws IllegalArgumentException for example {@code not a valid duration string: "1x"}
   */
  public static Duration parse(String s) {
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    if (s.isEmpty()) {
      throw new IllegalArgumentException("empty duration string");
    }
    long total = 0;
    int lastUnit = -1;
    int i = 0;
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128) {
        i++;
      }
      if (i == start) {
        throw invalid(s);
      }
      long value;
      try {
        value = Long.parseLong(s.substring(start, i));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("duration out of range");
      }
      int unitStart = i;
      while (i < s.length() && !(s.charAt(i) >= '0' && s.charAt(i) <= '9')) {
        i++;
      }
      if (i == unitStart) {
        throw invalid(s);
      }
      String unit = s.substring(unitStart, i);
      int u = unitIndex(unit);
      if (u < 0) {
        throw new IllegalArgumentException(
            "unknown unit " + quote(unit) + " in duration " + quote(s));
      }
      if (u <= lastUnit) {
        throw invalid(s);
      }
      lastUnit = u;
      if (value > Long.MAX_VALUE / MILLIS[u] / 1_000_000L) {
        throw new IllegalArgumentException("duration out of range");
      }
      total += value * MILLIS[u];
      if (total > Long.MAX_VALUE / 1_000_000L) {
        throw new IllegalArgumentException("duration out of range");
      }
    }
    return Duration.ofMillis(total);
  }

  /**
   * Formats as Prometheus prints durations: {@code 0s}, {@code 1m30s}, {@code 2w}, {@code 1y}, and
   * {@code 90d} (not {@code 12w6d}).
   */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    if (ms < 0) {
      sb.append('-');
      ms = -ms;
    }
    for (int u = 0; u < UNITS.length; u++) {
      // As prometheus/common's Duration.String: years and weeks only when they divide what is
      // left exactly ("it is often easier to read 90d than 12w6d").
      if (u < EXACT_ONLY && ms % MILLIS[u] != 0) {
        continue;
      }
      long n = ms / MILLIS[u];
      if (n > 0) {
        sb.append(n).append(UNITS[u]);
        ms -= n * MILLIS[u];
      }
    }
    return sb.toString();
  }

  private static int unitIndex(String unit) {
    for (int u = 0; u < UNITS.length; u++) {
      if (UNITS[u].equals(unit)) {
        return u;
      }
    }
    return -1;
  }

  private static IllegalArgumentException invalid(String s) {
    return new IllegalArgumentException("not a valid duration string: " + quote(s));
  }

  private static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
