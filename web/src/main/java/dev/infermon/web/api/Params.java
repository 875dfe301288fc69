package dev.infermon.web.api;

import dev.infermon.promql.parser.PromqlParser;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Parses the API's time and duration parameters as Prometheus's {@code parseTime} and {@code
 * parseDuration} do. Times come back in milliseconds since the epoch. Stateless.
 */
public final class Params {
  private Params() {}

  /** Go's {@code strconv.ParseFloat} for the decimal forms clients send (no hex, no suffixes). */
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?");

  /** Prometheus's {@code minTime}: the earliest time Go can format, in milliseconds. */
  static final long MIN_TIME = (Long.MIN_VALUE / 1000 + 62135596801L) * 1000;

  /** Prometheus's {@code maxTime}, in milliseconds. */
  static final long MAX_TIME = (Long.MAX_VALUE / 1000 - 62135596801L) * 1000 + 999;

  private static final String MIN_TIME_FORMATTED = "-292273086-05-16T16:47:06Z";
  private static final String MAX_TIME_FORMATTED = "292277025-08-18T07:12:54.999999999Z";

  /**
   * A time: Unix seconds as a decimal (rounded to milliseconds) or RFC 3339, between Prometheus's
   * {@code minTime} and {@code maxTime} (the range its API uses for "no bound"). Prometheus 2.42
   * turns a float beyond int64 seconds into a wrapped-around time ({@code time=1e300} answers at
   * 0); infermon refuses every time outside that range, as newer Prometheus does.
   *
   * @throws IllegalArgumentException with Prometheus's message {@code cannot parse "x" to a valid
   *     timestamp}
   */
  public static long time(String s) {
    if (DECIMAL.matcher(s).matches()) {
      double t = Double.parseDouble(s);
      if (Double.isFinite(t) && t >= MIN_TIME / 1000.0 && t <= MAX_TIME / 1000.0) {
        double whole = t < 0 ? Math.ceil(t) : Math.floor(t);
        double fraction = Math.round((t - whole) * 1000) / 1000.0;
        return inRange(s, (long) whole * 1000 + Math.round(fraction * 1000));
      }
      throw unparsable(s);
    }
    try {
      OffsetDateTime odt = OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
      return inRange(s, odt.toInstant().toEpochMilli());
    } catch (DateTimeParseException | ArithmeticException e) {
      // fall through to the boundary times, then to the error
    }
    if (s.equals(MIN_TIME_FORMATTED)) {
      return MIN_TIME;
    }
    if (s.equals(MAX_TIME_FORMATTED)) {
      return MAX_TIME;
    }
    throw unparsable(s);
  }

  private static long inRange(String s, long ms) {
    if (ms < MIN_TIME || ms > MAX_TIME) {
      throw unparsable(s);
    }
    return ms;
  }

  private static IllegalArgumentException unparsable(String s) {
    return new IllegalArgumentException("cannot parse \"" + s + "\" to a valid timestamp");
  }

  /**
   * A duration in milliseconds: seconds as a decimal, or a Prometheus duration ({@code 1m30s}).
   * Sub-millisecond parts are truncated, as the engine's millisecond resolution requires.
   *
   * @throws IllegalArgumentException with Prometheus's message {@code cannot parse "x" to a valid
   *     duration}
   */
  public static long duration(String s) {
    if (DECIMAL.matcher(s).matches()) {
      double d = Double.parseDouble(s) * 1e9;
      if (d > Long.MAX_VALUE || d < Long.MIN_VALUE) {
        throw new IllegalArgumentException(
            "cannot parse \"" + s + "\" to a valid duration. It overflows int64");
      }
      return ((long) d) / 1_000_000;
    }
    try {
      return PromqlParser.parseDuration(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot parse \"" + s + "\" to a valid duration");
    }
  }
}
