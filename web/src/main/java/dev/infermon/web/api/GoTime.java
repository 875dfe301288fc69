package dev.infermon.web.api;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/** Go's text forms of times, durations and {@code 'e'} floats where Prometheus's JSON uses them. */
final class GoTime {
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  /** Go's zero {@code time.Time} in JSON. */
  static final String ZERO = "0001-01-01T00:00:00Z";

  private GoTime() {}

  /** {@code time.Time} marshalled to JSON: RFC 3339 in UTC, fraction trimmed of zeros. */
  static String rfc3339Nano(Optional<Instant> t) {
    if (t.isEmpty()) {
      return ZERO;
    }
    Instant i = t.get();
    StringBuilder sb = new StringBuilder(SECONDS.format(i));
    int nanos = i.getNano();
    if (nanos != 0) {
      String f = String.format("%09d", nanos);
      int end = f.length();
      while (f.charAt(end - 1) == '0') {
        end--;
      }
      sb.append('.').append(f, 0, end);
    }
    return sb.append('Z').toString();
  }

  /**
   * A duration in Prometheus's {@code model.Duration} form: {@code 1m30s}, {@code 15s}, {@code 0s}.
   */
  static String promDuration(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    long[] units = {
      365L * 24 * 3600_000, 7L * 24 * 3600_000, 24L * 3600_000, 3600_000, 60_000, 1000, 1
    };
    String[] names = {"y", "w", "d", "h", "m", "s", "ms"};
    for (int i = 0; i < units.length; i++) {
      if (ms >= units[i]) {
        sb.append(ms / units[i]).append(names[i]);
        ms %= units[i];
      }
    }
    return sb.toString();
  }
}
