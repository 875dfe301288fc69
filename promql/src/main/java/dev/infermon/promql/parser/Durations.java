package dev.infermon.promql.parser;

/**
 * Prometheus durations ({@code model.ParseDuration} and {@code model.Duration.String}): units
 * {@code y w d h m s ms}, each at most once and from largest to smallest, as in {@code 1h30m}. A
 * year is 365 days. Durations are held in milliseconds.
 */
public final class Durations {
  private static final long NANOS_PER_MS = 1_000_000L;
  private static final String[] UNITS = {"y", "w", "d", "h", "m", "s", "ms"};
  private static final long[] UNIT_NANOS = {
    365L * 24 * 3600 * 1_000_000_000L,
    7L * 24 * 3600 * 1_000_000_000L,
    24L * 3600 * 1_000_000_000L,
    3600L * 1_000_000_000L,
    60L * 1_000_000_000L,
    1_000_000_000L,
    1_000_000L
  };

  private Durations() {}

  /**
   * Parses a Prometheus duration such as {@code 1h30m}, {@code 500ms}, {@code 1y} or {@code 0}.
   *
   * @return the duration in milliseconds
   * @throws IllegalArgumentException with Prometheus's message ("not a valid duration string: ...",
   *     "unknown unit ...", "duration out of range", "empty duration string")
   */
  public static long parse(String s) {
    return parseNanos(s) / NANOS_PER_MS;
  }

  /**
   * Parses a duration as Prometheus's HTTP API does ({@code step}, {@code timeout}, ...): a float
   * number of seconds ({@code 15}, {@code 0.5}) or a duration ({@code 1m}).
   *
   * @return the duration in milliseconds
   * @throws IllegalArgumentException "cannot parse ... to a valid duration" with the value
   */
  public static long parseApiDuration(String s) {
    Double seconds = Numbers.parseGoFloat(s);
    if (seconds != null) {
      double nanos = seconds * 1e9;
      if (nanos > Long.MAX_VALUE || nanos < Long.MIN_VALUE || Double.isNaN(nanos)) {
        throw new IllegalArgumentException(
            "cannot parse " + GoText.quote(s) + " to a valid duration. It overflows int64");
      }
      return (long) nanos / NANOS_PER_MS;
    }
    try {
      return parse(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "cannot parse " + GoText.quote(s) + " to a valid duration", e);
    }
  }

  /** Like {@link #parse} but in nanoseconds, the unit Prometheus computes in. */
  static long parseNanos(String s) {
    if (s.equals("0")) {
      return 0;
    }
    if (s.isEmpty()) {
      throw new IllegalArgumentException("empty duration string");
    }
    long total = 0;
    int lastUnit = -1;
    int i = 0;
    while (i < s.length()) {
      int digitsStart = i;
      while (i < s.length() && isDigit(s.charAt(i))) {
        i++;
      }
      if (i == digitsStart) {
        throw invalid(s);
      }
      long v;
      try {
        v = Long.parseUnsignedLong(s.substring(digitsStart, i));
      } catch (NumberFormatException e) {
        throw invalid(s);
      }
      int unitStart = i;
      while (i < s.length() && !isDigit(s.charAt(i))) {
        i++;
      }
      if (i == unitStart) {
        throw invalid(s);
      }
      String unit = s.substring(unitStart, i);
      int u = unitIndex(unit);
      if (u < 0) {
        throw new IllegalArgumentException(
            "unknown unit " + GoText.quote(unit) + " in duration " + GoText.quote(s));
      }
      if (u <= lastUnit) {
        throw invalid(s);
      }
      lastUnit = u;
      // Go checks v > 2^63/mult, then that the sum stays below 2^63.
      if (Long.compareUnsigned(v, Long.divideUnsigned(Long.MIN_VALUE, UNIT_NANOS[u])) > 0) {
        throw new IllegalArgumentException("duration out of range");
      }
      try {
        total = Math.addExact(total, Math.multiplyExact(v, UNIT_NANOS[u]));
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("duration out of range", e);
      }
    }
    return total;
  }

  /**
   * Formats milliseconds as Prometheus does: {@code 1h30m}, {@code 90d}, {@code 1s500ms}, {@code
   * 0s}. Years and weeks are used only when they divide the duration exactly.
   *
   * @throws IllegalArgumentException for a negative duration
   */
  public static String format(long ms) {
    if (ms < 0) {
      throw new IllegalArgumentException("negative duration: " + ms + "ms");
    }
    if (ms == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    long rest = ms;
    for (int u = 0; u < UNITS.length; u++) {
      long mult = UNIT_NANOS[u] / NANOS_PER_MS;
      boolean exactOnly = u < 2;
      if (exactOnly && rest % mult != 0) {
        continue;
      }
      long v = rest / mult;
      if (v > 0) {
        sb.append(v).append(UNITS[u]);
        rest -= v * mult;
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

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static IllegalArgumentException invalid(String s) {
    return new IllegalArgumentException("not a valid duration string: " + GoText.quote(s));
  }
}
