package dev.infermon.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import dev.infermon.server.logging.RedactingMessageConverter;
import dev.infermon.server.logging.RedactingThrowableConverter;
import dev.infermon.server.logging.WireLogFilter;
import org.slf4j.Logger;

/**
 * infermon's logging set-up, in code rather than a {@code logback.xml}: logs go to stderr (so that
 * commands such as {@code check metrics} keep stdout for their output) at the level in {@code
 * INFERMON_LOG_LEVEL} (default INFO), never showing a credential ({@link WireLogFilter}, {@link
 * dev.infermon.server.logging.Redaction}). Done in code because reading an XML file makes Logback
 * load its configuration framework and an XML parser, several hundred classes that stay in memory
 * for the life of the server. A configuration file given with {@code -Dlogback.configurationFile}
 * still wins: this configurator then steps aside. Found by Logback through {@code
 * META-INF/services}.
 */
public final class LogConfigurator extends ContextAwareBase implements Configurator {
  static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %logger{0} - %msg%n%ex";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    // No credential reaches the log, at any level: the HTTP libraries' wire logging stays out,
    // and messages and exceptions are masked (server.logging).
    WireLogFilter wire = new WireLogFilter();
    wire.setContext(context);
    wire.start();
    context.addTurboFilter(wire);
    PatternLayout layout = new PatternLayout();
    layout.setContext(context);
    for (String word : new String[] {"m", "msg", "message"}) {
      layout.getInstanceConverterMap().put(word, RedactingMessageConverter::new);
    }
    for (String word : new String[] {"ex", "exception", "throwable"}) {
      layout.getInstanceConverterMap().put(word, RedactingThrowableConverter::new);
    }
    layout.setPattern(PATTERN);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(System.getenv("INFERMON_LOG_LEVEL"), Level.INFO));
    root.addAppender(stderr);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
