package dev.infermon.config.scrape;

import dev.infermon.config.value.ByteSize;
import dev.infermon.model.labels.Labels;
import java.time.Duration;
import java.util.List;

/**
 * The {@code global} section: defaults for every scrape config and rule group, and the external
 * labels. Values are resolved: an unset {@code scrape_timeout} is already {@code min(10s,
 * scrape_interval)}. {@code scrape_sharding} is infermon's: see {@link ScrapeSharding}.
 */
public record GlobalConfig(
    Duration scrapeInterval,
    Duration scrapeTimeout,
    List<String> scrapeProtocols,
    Duration evaluationInterval,
    Duration ruleQueryOffset,
    String queryLogFile,
    String scrapeFailureLogFile,
    Labels externalLabels,
    ByteSize bodySizeLimit,
    long sampleLimit,
    long targetLimit,
    long labelLimit,
    long labelNameLengthLimit,
    long labelValueLengthLimit,
    long keepDroppedTargets,
    String metricNameValidationScheme,
    String metricNameEscapingScheme,
    boolean scrapeNativeHistograms,
    boolean convertClassicHistogramsToNhcb,
    boolean alwaysScrapeClassicHistograms,
    boolean extraScrapeMetrics,
    ScrapeSharding scrapeSharding) {
  public static final Duration DEFAULT_SCRAPE_INTERVAL = Duration.ofMinutes(1);
  public static final Duration DEFAULT_SCRAPE_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_EVALUATION_INTERVAL = Duration.ofMinutes(1);

  /** Content types offered to targets, most preferred first (Prometheus 3's default). */
  public static final List<String> DEFAULT_SCRAPE_PROTOCOLS =
      List.of(
          "OpenMetricsText1.0.0",
          "OpenMetricsText0.0.1",
          "PrometheusText1.0.0",
          "PrometheusText0.0.4");

  /** Every protocol name Prometheus accepts in {@code scrape_protocols}. */
  public static final List<String> SCRAPE_PROTOCOLS =
      List.of(
          "OpenMetricsText0.0.1",
          "OpenMetricsText1.0.0",
          "PrometheusProto",
          "PrometheusText0.0.4",
          "PrometheusText1.0.0");

  /** Prometheus's {@code DefaultGlobalConfig}. */
  public static final GlobalConfig DEFAULT =
      new GlobalConfig(
          DEFAULT_SCRAPE_INTERVAL,
          DEFAULT_SCRAPE_TIMEOUT,
          DEFAULT_SCRAPE_PROTOCOLS,
          DEFAULT_EVALUATION_INTERVAL,
          Duration.ZERO,
          "",
          "",
          Labels.EMPTY,
          ByteSize.ZERO,
          0,
          0,
          0,
          0,
          0,
          0,
          "utf8",
          "allow-utf-8",
          false,
          false,
          false,
          false,
          ScrapeSharding.NONE);
}
