package dev.infermon.server.cli;

import ch.qos.logback.classic.Level;
import dev.infermon.config.ConfigException;
import dev.infermon.config.value.ByteSize;
import dev.infermon.config.value.PromDuration;
import dev.infermon.rules.rulefmt.RuleFileException;
import dev.infermon.server.runtime.AlertingSettings;
import dev.infermon.server.runtime.Infermon;
import dev.infermon.server.runtime.ServeSettings;
import dev.infermon.tsdb.fileutil.IoErrors;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code infermon serve}: runs the server with Prometheus's flag names and meanings, so that
 * scripts written for {@code prometheus} start infermon. A flag that is given wins over the
 * configuration file; one that is not leaves the file (or its default) in charge.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Runs infermon: the Prometheus-compatible HTTP API, storage, scraping and discovery.",
      "Flags have Prometheus's names and meanings and win over the configuration file."
    })
public final class ServeCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Set by tests: called with the running server instead of waiting for a signal. */
  static volatile java.util.function.Consumer<Infermon> onStarted;

  @Option(
      names = "--config.file",
      paramLabel = "FILE",
      description =
          "Configuration file (default: ${DEFAULT-VALUE}; absent means built-in defaults).",
      defaultValue = "infermon.yml")
  Path configFile;

  @Option(
      names = "--web.listen-address",
      paramLabel = "HOST:PORT",
      description = "Address of the API and UI (default: web.listen_address, 0.0.0.0:9090).")
  String listenAddress;

  @Option(
      names = "--web.external-url",
      paramLabel = "URL",
      description =
          "The URL infermon is reached at, e.g. behind a reverse proxy; links in alerts start"
              + " with it (default: the listen address).")
  String externalUrl;

  @Option(
      names = "--storage.tsdb.path",
      paramLabel = "DIR",
      description = "Data directory (default: storage.tsdb.path, data/).")
  Path tsdbPath;

  @Option(
      names = "--storage.tsdb.retention.time",
      paramLabel = "DURATION",
      description = "How long to keep samples (default: storage.tsdb.retention.time, 15d).")
  String retentionTime;

  @Option(
      names = "--storage.tsdb.retention.size",
      paramLabel = "SIZE",
      description = "Most bytes of blocks to keep, e.g. 10GB; 0 is no limit (default: 0).")
  String retentionSize;

  @Option(
      names = "--web.config.file",
      paramLabel = "FILE",
      description =
          "Prometheus's web configuration file: TLS, basic-auth users and response headers"
              + " (docs/configuration.md).")
  Path webConfigFile;

  @Option(
      names = "--web.enable-remote-write-receiver",
      description = "Accept remote-write requests on /api/v1/write.")
  boolean remoteWriteReceiver;

  @Option(
      names = "--web.enable-lifecycle",
      description = "Allow reloading through POST /-/reload (SIGHUP always works).")
  boolean lifecycle;

  @Option(
      names = "--query.timeout",
      paramLabel = "DURATION",
      description = "Longest a query may run (default: ${DEFAULT-VALUE}).",
      defaultValue = "2m")
  String queryTimeout;

  @Option(
      names = "--query.max-samples",
      paramLabel = "N",
      description = "Most samples a query may hold in memory (default: ${DEFAULT-VALUE}).",
      defaultValue = "50000000")
  int queryMaxSamples;

  @Option(
      names = "--query.max-concurrency",
      paramLabel = "N",
      description =
          "Most queries run at once; more wait (default: web.max_concurrent_queries, 20).")
  Integer queryMaxConcurrency;

  @Option(
      names = "--query.lookback-delta",
      paramLabel = "DURATION",
      description = "How far back an instant selector looks (default: ${DEFAULT-VALUE}).",
      defaultValue = "5m")
  String lookbackDelta;

  @Option(
      names = "--rules.alert.for-outage-tolerance",
      paramLabel = "DURATION",
      description =
          "Longest downtime after which pending alerts still restore their for state"
              + " (default: ${DEFAULT-VALUE}).",
      defaultValue = "1h")
  String forOutageTolerance;

  @Option(
      names = "--rules.alert.for-grace-period",
      paramLabel = "DURATION",
      description =
          "Least time between a restart and a restored alert firing (default: ${DEFAULT-VALUE}).",
      defaultValue = "10m")
  String forGracePeriod;

  @Option(
      names = "--rules.alert.resend-delay",
      paramLabel = "DURATION",
      description = "How often firing alerts are sent again (default: ${DEFAULT-VALUE}).",
      defaultValue = "1m")
  String resendDelay;

  @Option(
      names = "--alertmanager.notification-queue-capacity",
      paramLabel = "N",
      description =
          "Alerts queued for Alertmanager before the oldest are dropped"
              + " (default: ${DEFAULT-VALUE}).",
      defaultValue = "10000")
  int notificationQueueCapacity;

  @Option(
      names = "--log.level",
      paramLabel = "LEVEL",
      description = "debug, info, warn or error (default: ${DEFAULT-VALUE}).",
      defaultValue = "info")
  String logLevel;

  @Override
  public Integer call() throws Exception {
    setLogLevel(logLevel);
    ServeSettings settings;
    try {
      settings = settings(System.getenv());
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Infermon infermon;
    try {
      infermon = Infermon.start(settings, dev.infermon.server.Main.version());
    } catch (ConfigException e) {
      spec.commandLine().getErr().println("infermon: " + e.getMessage());
      return 1;
    } catch (IOException e) {
      // The operation, the file and the reason: the JDK's own message is often just the path.
      spec.commandLine().getErr().println("infermon: " + IoErrors.message(e));
      return 1;
    } catch (RuleFileException | IllegalArgumentException e) {
      // A rule file that does not load, or scrape pools that clash: the operator's to fix.
      spec.commandLine().getErr().println("infermon: " + e.getMessage());
      return 1;
    }
    java.util.function.Consumer<Infermon> hook = onStarted;
    if (hook != null) {
      hook.accept(infermon);
      return 0;
    }
    Thread shutdown = new Thread(infermon::close, "shutdown");
    Runtime.getRuntime().addShutdownHook(shutdown);
    dev.infermon.server.runtime.Lifecycle.reloadOnHangup(infermon);
    infermon.awaitStopped();
    return 0;
  }

  /** The settings these flags describe; {@code env} feeds {@code INFERMON_*} overrides. */
  ServeSettings settings(Map<String, String> env) {
    boolean explicit =
        spec != null && spec.commandLine().getParseResult().hasMatchedOption("--config.file");
    return new ServeSettings(
        configFile,
        explicit,
        Optional.ofNullable(listenAddress),
        Optional.ofNullable(tsdbPath),
        Optional.ofNullable(retentionTime).map(s -> duration("--storage.tsdb.retention.time", s)),
        Optional.ofNullable(retentionSize).map(s -> size("--storage.tsdb.retention.size", s)),
        remoteWriteReceiver,
        lifecycle,
        duration("--query.timeout", queryTimeout),
        queryMaxSamples,
        Optional.ofNullable(queryMaxConcurrency),
        duration("--query.lookback-delta", lookbackDelta),
        env,
        flagValues(),
        new AlertingSettings(
            duration("--rules.alert.for-outage-tolerance", forOutageTolerance),
            duration("--rules.alert.for-grace-period", forGracePeriod),
            duration("--rules.alert.resend-delay", resendDelay),
            notificationQueueCapacity),
        Optional.ofNullable(webConfigFile),
        Optional.ofNullable(externalUrl));
  }

  /** Every flag and its value, as {@code /api/v1/status/flags} shows them (no secrets here). */
  private Map<String, String> flagValues() {
    Map<String, String> m = new TreeMap<>();
    m.put("config.file", String.valueOf(configFile));
    m.put("web.listen-address", listenAddress == null ? "" : listenAddress);
    m.put("web.external-url", externalUrl == null ? "" : externalUrl);
    m.put("web.config.file", webConfigFile == null ? "" : webConfigFile.toString());
    m.put("storage.tsdb.path", tsdbPath == null ? "" : tsdbPath.toString());
    m.put("storage.tsdb.retention.time", retentionTime == null ? "" : retentionTime);
    m.put("storage.tsdb.retention.size", retentionSize == null ? "" : retentionSize);
    m.put("web.enable-remote-write-receiver", Boolean.toString(remoteWriteReceiver));
    m.put("web.enable-lifecycle", Boolean.toString(lifecycle));
    m.put("query.timeout", queryTimeout);
    m.put("query.max-samples", Integer.toString(queryMaxSamples));
    m.put(
        "query.max-concurrency", queryMaxConcurrency == null ? "" : queryMaxConcurrency.toString());
    m.put("query.lookback-delta", lookbackDelta);
    m.put("rules.alert.for-outage-tolerance", forOutageTolerance);
    m.put("rules.alert.for-grace-period", forGracePeriod);
    m.put("rules.alert.resend-delay", resendDelay);
    m.put("alertmanager.notification-queue-capacity", Integer.toString(notificationQueueCapacity));
    m.put("log.level", logLevel);
    return m;
  }

  private static Duration duration(String flag, String s) {
    try {
      Duration d = PromDuration.parse(s);
      if (d.isNegative()) {
        throw new IllegalArgumentException("negative");
      }
      return d;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid duration for " + flag + ": \"" + s + "\"");
    }
  }

  private static ByteSize size(String flag, String s) {
    try {
      return ByteSize.parse(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid size for " + flag + ": \"" + s + "\"");
    }
  }

  static void setLogLevel(String level) {
    Level l;
    switch (level.toLowerCase(Locale.ROOT)) {
      case "debug":
        l = Level.DEBUG;
        break;
      case "info":
        l = Level.INFO;
        break;
      case "warn":
        l = Level.WARN;
        break;
      case "error":
        l = Level.ERROR;
        break;
      default:
        throw new IllegalArgumentException(
            "invalid --log.level \"" + level + "\": want debug, info, warn or error");
    }
    org.slf4j.Logger root = LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    if (root instanceof ch.qos.logback.classic.Logger) {
      ((ch.qos.logback.classic.Logger) root).setLevel(l);
    }
  }
}
