package dev.infermon.promql.promqltest;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Prometheus's {@code model.ParseDuration} for script times and steps. Stateless. */
final class Durations {
  private static final Pattern DURATION =
      Pattern.compile(
          "^(?:(\\d+)y)?(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?(?:(\\d+)ms)?$");
  private static final long[] UNIT_MS = {
    365L * 24 * 3600 * 1000, 7L * 24 * 3600 * 1000, 24L * 3600 * 1000, 3600_000L, 60_000L, 1000L, 1L
  };

  private Durations() {}

  /**
   * Milliseconds of a duration such as {@code 1h30m} or {@code 0}.
   *
   * @throws IllegalArgumentException naming the text when it is not a duration
   */
  static long parse(String s) {
    if (s.equals("0")) {
      return 0;
    }
    Matcher m = DURATION.matcher(s);
    if (s.isEmpty() || !m.matches()) {
      throw new IllegalArgumentException("not a valid duration string: \"" + s + "\"");
    }
    long ms = 0;
    for (int g = 1; g <= 7; g++) {
      if (m.group(g) != null) {
        ms += Long.parseLong(m.group(g)) * UNIT_MS[g - 1];
      }
    }
    return ms;
  }
}
