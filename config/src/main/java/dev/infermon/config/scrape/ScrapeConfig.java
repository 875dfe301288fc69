package dev.infermon.config.scrape;

import dev.infermon.config.value.ByteSize;
import dev.infermon.config.yaml.YamlKey;
import dev.infermon.model.relabel.RelabelConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One scrape job ({@code scrape_configs[]}), with the global defaults already applied: limits,
 * intervals and protocols left unset in the file hold the {@code global} values.
 *
 * <p>{@link #unsupportedSdConfigs()} names discovery mechanisms that the file uses and infermon
 * does not implement (for example {@code consul_sd_configs}); they load with a warning and find no
 * targets.
 */
public record ScrapeConfig(
    String jobName,
    boolean honorLabels,
    boolean honorTimestamps,
    boolean trackTimestampsStaleness,
    Map<String, List<String>> params,
    Duration scrapeInterval,
    Duration scrapeTimeout,
    List<String> scrapeProtocols,
    String fallbackScrapeProtocol,
    boolean scrapeNativeHistograms,
    boolean alwaysScrapeClassicHistograms,
    boolean convertClassicHistogramsToNhcb,
    String scrapeFailureLogFile,
    String metricsPath,
    String scheme,
    boolean enableCompression,
    ByteSize bodySizeLimit,
    long sampleLimit,
    long targetLimit,
    long labelLimit,
    long labelNameLengthLimit,
    long labelValueLengthLimit,
    long nativeHistogramBucketLimit,
    double nativeHistogramMinBucketFactor,
    long keepDroppedTargets,
    String metricNameValidationScheme,
    String metricNameEscapingScheme,
    boolean extraScrapeMetrics,
    @YamlKey(inline = true) HttpClientConfig httpClient,
    List<RelabelConfig> relabelConfigs,
    List<RelabelConfig> metricRelabelConfigs,
    List<StaticConfig> staticConfigs,
    List<FileSdConfig> fileSdConfigs,
    List<KubernetesSdConfig> kubernetesSdConfigs,
    @YamlKey(skip = true) List<String> unsupportedSdConfigs) {
  public static final String DEFAULT_METRICS_PATH = "/metrics";
  public static final String DEFAULT_SCHEME = "http";

  /**
   * The protocols offered when native histograms are scraped and {@code global.scrape_protocols} is
   * left at its default: protobuf first, as Prometheus 3 does.
   */
  public static final List<String> NATIVE_HISTOGRAM_PROTOCOLS =
      List.of(
          "PrometheusProto",
          "OpenMetricsText1.0.0",
          "OpenMetricsText0.0.1",
          "PrometheusText1.0.0",
          "PrometheusText0.0.4");

  /**
   * The scrape config that {@code - job_name: <jobName>} with no other key gives under {@code
   * global}: the same record the loader builds, so scrape pools the server creates itself (the
   * {@code inference} and {@code dcgm} pools, the demo's) behave like configured ones. Global
   * scrape sharding applies to it as to every configured job.
   *
   * @throws IllegalArgumentException if {@code jobName} is empty or {@code global} is null
   */
  public static ScrapeConfig defaults(String jobName, GlobalConfig global) {
    if (jobName == null || jobName.isEmpty()) {
      throw new IllegalArgumentException("jobName must not be empty, got \"" + jobName + "\"");
    }
    if (global == null) {
      throw new IllegalArgumentException("global must not be null");
    }
    GlobalConfig g = global;
    Duration interval = g.scrapeInterval();
    Duration timeout = g.scrapeTimeout().compareTo(interval) < 0 ? g.scrapeTimeout() : interval;
    List<String> protocols =
        g.scrapeNativeHistograms() && g.scrapeProtocols() == GlobalConfig.DEFAULT_SCRAPE_PROTOCOLS
            ? NATIVE_HISTOGRAM_PROTOCOLS
            : g.scrapeProtocols();
    return new ScrapeConfig(
        jobName,
        false,
        true,
        false,
        Map.of(),
        interval,
        timeout,
        protocols,
        "",
        g.scrapeNativeHistograms(),
        g.alwaysScrapeClassicHistograms(),
        g.convertClassicHistogramsToNhcb(),
        g.scrapeFailureLogFile(),
        DEFAULT_METRICS_PATH,
        DEFAULT_SCHEME,
        true,
        g.bodySizeLimit(),
        g.sampleLimit(),
        g.targetLimit(),
        g.labelLimit(),
        g.labelNameLengthLimit(),
        g.labelValueLengthLimit(),
        0,
        0,
        g.keepDroppedTargets(),
        g.metricNameValidationScheme(),
        g.metricNameEscapingScheme(),
        g.extraScrapeMetrics(),
        HttpClientConfig.DEFAULT,
        g.scrapeSharding().relabelRules(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of());
  }

  /**
   * This config with another interval and timeout.
   *
   * @throws IllegalArgumentException if either is not positive or the timeout exceeds the interval
   */
  public ScrapeConfig withIntervals(Duration interval, Duration timeout) {
    if (interval == null || interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("scrape interval must be positive, got " + interval);
    }
    if (timeout == null || timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("scrape timeout must be positive, got " + timeout);
    }
    if (timeout.compareTo(interval) > 0) {
      throw new IllegalArgumentException(
          "scrape timeout " + timeout + " greater than scrape interval " + interval);
    }
    return with(interval, timeout, staticConfigs);
  }

  /** This config with {@code statics} as its {@code static_configs}. */
  public ScrapeConfig withStaticConfigs(List<StaticConfig> statics) {
    return with(scrapeInterval, scrapeTimeout, List.copyOf(statics));
  }

  // The one copy of every component: each wither above changes only what it names.
  private ScrapeConfig with(Duration interval, Duration timeout, List<StaticConfig> statics) {
    return new ScrapeConfig(
        jobName,
        honorLabels,
        honorTimestamps,
        trackTimestampsStaleness,
        params,
        interval,
        timeout,
        scrapeProtocols,
        fallbackScrapeProtocol,
        scrapeNativeHistograms,
        alwaysScrapeClassicHistograms,
        convertClassicHistogramsToNhcb,
        scrapeFailureLogFile,
        metricsPath,
        scheme,
        enableCompression,
        bodySizeLimit,
        sampleLimit,
        targetLimit,
        labelLimit,
        labelNameLengthLimit,
        labelValueLengthLimit,
        nativeHistogramBucketLimit,
        nativeHistogramMinBucketFactor,
        keepDroppedTargets,
        metricNameValidationScheme,
        metricNameEscapingScheme,
        extraScrapeMetrics,
        httpClient,
        relabelConfigs,
        metricRelabelConfigs,
        statics,
        fileSdConfigs,
        kubernetesSdConfigs,
        unsupportedSdConfigs);
  }
}
