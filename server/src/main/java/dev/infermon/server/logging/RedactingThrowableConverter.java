package dev.infermon.server.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** {@code %ex} with credentials masked: an exception's message may quote a URL or a header. */
public final class RedactingThrowableConverter extends ThrowableProxyConverter {
  @Override
  public String convert(ILoggingEvent event) {
    return Redaction.redact(super.convert(event));
  }
}
