package dev.infermon.server.runtime;

import dev.infermon.config.value.ByteSize;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
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
 * @param webConfigFile {@code --web.config.file}
 * @param externalUrl {@code --web.external-url}: the URL users reach infermon at (behind a proxy,
 *     the proxy's), which links in alerts start with; absolute {@code http} or {@code https}, kept
 *     without a trailing {@code /}. Empty: the listen address
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
    Optional<Path> webConfigFile,
    Optional<String> externalUrl) {
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
    externalUrl = externalUrl.map(ServeSettings::externalUrl);
    env = Map.copyOf(env);
    flagValues = Map.copyOf(flagValues);
    if (queryMaxSamples <= 0) {
      throw new IllegalArgumentException(
          "--query.max-samples must be positive: " + queryMaxSamples);
    }
  }

  /**
   * {@code url} as links start with it: without its trailing {@code /}.
   *
   * @throws IllegalArgumentException naming {@code url} when it is not an absolute {@code http} or
   *     {@code https} URL with a host, or has a query or a fragment
   */
  static String externalUrl(String url) {
    URI u;
    try {
      u = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "--web.external-url must be a URL, got \"" + url + "\": " + e.getReason());
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null) {
      throw new IllegalArgumentException(
          "--web.external-url must be an absolute http:// or https:// URL with a host, got \""
              + url
              + "\"");
    }
    if (u.getRawQuery() != null || u.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "--web.external-url must not have a query or a fragment, got \"" + url + "\"");
    }
    String s = u.toString();
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
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
        Optional.empty(),
        Optional.empty());
  }
}
