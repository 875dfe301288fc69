package dev.infermon.config.app;

import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.value.ByteSize;
import dev.infermon.config.value.Url;
import dev.infermon.config.yaml.YamlKey;
import java.time.Duration;
import java.util.Optional;

/**
 * The {@code storage} section: a superset of Prometheus's (which has {@code tsdb} and {@code
 * exemplars}) with infermon's {@code mode} and the remote cluster to query in remote mode.
 */
public record StorageConfig(Mode mode, Tsdb tsdb, Exemplars exemplars, Remote remote) {
  /** Where series live. */
  public enum Mode {
    /** The embedded TSDB stores and answers queries (the default). */
    EMBEDDED("embedded"),
    /** Samples are remote-written; queries go to {@code storage.remote.query_url}. */
    REMOTE("remote"),
    /** Scrape and remote-write only, like {@code prometheus --agent}: no rules, no queries. */
    AGENT("agent");

    private final String yamlName;

    Mode(String yamlName) {
      this.yamlName = yamlName;
    }

    public String yamlName() {
      return yamlName;
    }

    @Override
    public String toString() {
      return yamlName;
    }
  }

  /**
   * The embedded TSDB.
   *
   * @param tooFarInFutureTimeWindow how far ahead of the clock a sample may lie; later samples are
   *     refused (named after Thanos's {@code --tsdb.too-far-in-future.time-window}; Prometheus's
   *     scrape loop and remote-write handler refuse samples 10 minutes ahead)
   */
  public record Tsdb(
      String path,
      Retention retention,
      Duration outOfOrderTimeWindow,
      Duration tooFarInFutureTimeWindow) {
    public static final String DEFAULT_PATH = "data/";
    public static final Duration DEFAULT_TOO_FAR_IN_FUTURE_TIME_WINDOW = Duration.ofMinutes(10);
    public static final Tsdb DEFAULT =
        new Tsdb(
            DEFAULT_PATH, Retention.DEFAULT, Duration.ZERO, DEFAULT_TOO_FAR_IN_FUTURE_TIME_WINDOW);
  }

  /** How long and how much to keep; a zero size means no size limit. */
  public record Retention(Duration time, ByteSize size) {
    public static final Duration DEFAULT_TIME = Duration.ofDays(15);
    public static final Retention DEFAULT = new Retention(DEFAULT_TIME, ByteSize.ZERO);
  }

  /** Exemplar storage; zero turns it off. */
  public record Exemplars(long maxExemplars) {
    public static final Exemplars DEFAULT = new Exemplars(100_000);
  }

  /** A Prometheus-compatible HTTP API to query in remote mode. */
  public record Remote(
      Optional<Url> queryUrl,
      Duration timeout,
      @YamlKey(inline = true) HttpClientConfig httpClient) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);
    public static final Remote NONE =
        new Remote(Optional.empty(), DEFAULT_TIMEOUT, HttpClientConfig.DEFAULT);
  }

  public static final StorageConfig DEFAULT =
      new StorageConfig(Mode.EMBEDDED, Tsdb.DEFAULT, Exemplars.DEFAULT, Remote.NONE);
}
