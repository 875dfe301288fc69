package dev.infermon.server.cli;

import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.remote.query.RemoteQueryBackend;
import dev.infermon.server.Main;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The flags of the commands that read a window of what a Prometheus-compatible API stores ({@code
 * diagnose}, {@code report}; a picocli mixin): {@code --url}, required, and {@code --end}. Each
 * command keeps its own {@code --window}, whose default its service decides.
 */
final class ApiOptions {
  @Option(
      names = "--url",
      required = true,
      paramLabel = "URL",
      description = "The Prometheus-compatible API to read (infermon: http://127.0.0.1:9090).")
  URI url;

  @Option(names = "--end", paramLabel = "RFC3339", description = "The window's end (default: now).")
  Instant end;

  /** {@code --end} in milliseconds, empty for now. */
  OptionalLong endMs() {
    return end == null ? OptionalLong.empty() : OptionalLong.of(end.toEpochMilli());
  }

  /** The API of {@code --url}, each query allowed {@code timeout}. */
  RemoteQueryBackend backend(Duration timeout) {
    return new RemoteQueryBackend(
        url, timeout, HttpClientConfig.DEFAULT, "infermon/" + Main.version());
  }

  /**
   * A {@code --window} value in milliseconds.
   *
   * @throws CommandLine.ParameterException naming {@code --window} when it is not a duration
   */
  static long windowMs(CommandSpec spec, String window) {
    try {
      return PromqlParser.parseDuration(window);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--window: " + e.getMessage());
    }
  }
}
