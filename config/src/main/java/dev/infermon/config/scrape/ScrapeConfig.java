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
}
