package dev.infermon.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.List;
import org.slf4j.Marker;

/**
 * Keeps the HTTP libraries' own debug and trace logging out, whatever {@code --log.level} says: at
 * those levels Jetty's parser and fabric8's HTTP logging print every request and response header,
 * credentials included, in forms no pattern can reliably mask. Their INFO and above (start-up,
 * warnings, errors) still pass. Thread-safe.
 */
public final class WireLogFilter extends TurboFilter {
  /** Loggers that write HTTP traffic at debug or trace. */
  static final List<String> WIRE_LOGGERS =
      List.of(
          "org.eclipse.jetty",
          "io.fabric8.kubernetes.client.http",
          "io.fabric8.kubernetes.client.jdkhttp",
          "jdk.internal.httpclient",
          "sun.net.www");

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (level == null || level.isGreaterOrEqual(Level.INFO)) {
      return FilterReply.NEUTRAL;
    }
    String name = logger.getName();
    for (String prefix : WIRE_LOGGERS) {
      if (name.startsWith(prefix)
          && (name.length() == prefix.length() || name.charAt(prefix.length()) == '.')) {
        return FilterReply.DENY;
      }
    }
    return FilterReply.NEUTRAL;
  }
}
