package dev.infermon.server.logging;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** {@code %msg} with credentials masked ({@link Redaction}). */
public final class RedactingMessageConverter extends MessageConverter {
  @Override
  public String convert(ILoggingEvent event) {
    return Redaction.redact(super.convert(event));
  }
}
