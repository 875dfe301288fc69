package dev.infermon.server.runtime;

import dev.infermon.config.value.ByteSize;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The command-line side of {@code infermon serve}: Prometheus's flags. An empty optional means the
 * flag was not given, so the configuration file (or its default) decides; a given flag wins over
 * the file. Immutable.
 *
 * @param configFile {@code --config.file}
 * @param configFileExplicit whether {@code --config.file} was given; a missing default file means
 *     "built-in defaults", a missing explicit file is an error
 * @param env the environment, for {@code INFERMON_*} overrides
 * @param flagValues every flag as Prometheus's {@code /api/v1/status/flags} shows them
 * @param alerting the {@code --rules.alert.*} and {@code --alertmanager.*} flags
 */
public record ServeSettings(
    Path configFile,
    boolean configFileExplicit,
    Optional<String> listenAddress,
    Optional<Path> tsdbPath,
    Optional<Duration> retentionTime,
    Optional<ByteSize> retentionSize,
    boolean remoteWriteReceiver,
    boolean lifecycleApi,
    Duration queryTimeout,
    int queryMaxSamples,
    Optional<Integer> queryMaxConcurrency,
    Duration lookbackDelta,
    Map<String, String> env,
    Map<String, String> flagValues,
    AlertingSettings alerting,
    Optional<Path> webConfigFile) {
  public ServeSettings {
    Objects.requireNonNull(configFile, "configFile");
    Objects.requireNonNull(listenAddress, "listenAddress");
    Objects.requireNonNull(tsdbPath, "tsdbPath");
    Objects.requireNonNull(retentionTime, "retentionTime");
    Objects.requireNonNull(retentionSize, "retentionSize");
    Objects.requireNonNull(queryTimeout, "queryTimeout");
    Objects.requireNonNull(queryMaxConcurrency, "queryMaxConcurrency");
    Objects.requireNonNull(lookbackDelta, "lookbackDelta");
    Objects.requireNonNull(alerting, "alerting");
    Objects.requireNonNull(webConfigFile, "webConfigFile");
    env = Map.copyOf(env);
    flagValues = Map.copyOf(flagValues);
    if (queryMaxSamples <= 0) {
      throw new IllegalArgumentException(
          "--query.max-samples must be positive: " + queryMaxSamples);
    }
  }

  /** Settings with Prometheus's default rule and notifier flags. */
  public ServeSettings(
      Path configFile,
      boolean configFileExplicit,
      Optional<String> listenAddress,
      Optional<Path> tsdbPath,
      Optional<Duration> retentionTime,
      Optional<ByteSize> retentionSize,
      boolean remoteWriteReceiver,
      boolean lifecycleApi,
      Duration queryTimeout,
      int queryMaxSamples,
      Optional<Integer> queryMaxConcurrency,
      Duration lookbackDelta,
      Map<String, String> env,
      Map<String, String> flagValues) {
    this(
        configFile,
        configFileExplicit,
        listenAddress,
        tsdbPath,
        retentionTime,
        retentionSize,
        remoteWriteReceiver,
        lifecycleApi,
        queryTimeout,
        queryMaxSamples,
        queryMaxConcurrency,
        lookbackDelta,
        env,
        flagValues,
        AlertingSettings.DEFAULTS,
        Optional.empty());
  }
}
