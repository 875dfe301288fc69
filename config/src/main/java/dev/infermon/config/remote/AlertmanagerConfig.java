package dev.infermon.config.remote;

import dev.infermon.config.scrape.FileSdConfig;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.scrape.KubernetesSdConfig;
import dev.infermon.config.scrape.StaticConfig;
import dev.infermon.config.yaml.YamlKey;
import dev.infermon.model.relabel.RelabelConfig;
import java.time.Duration;
import java.util.List;

/** How to find and reach a set of Alertmanagers ({@code alerting.alertmanagers[]}). */
public record AlertmanagerConfig(
    String scheme,
    String pathPrefix,
    Duration timeout,
    String apiVersion,
    List<RelabelConfig> relabelConfigs,
    List<RelabelConfig> alertRelabelConfigs,
    List<StaticConfig> staticConfigs,
    List<FileSdConfig> fileSdConfigs,
    List<KubernetesSdConfig> kubernetesSdConfigs,
    @YamlKey(inline = true) HttpClientConfig httpClient,
    @YamlKey(skip = true) List<String> unsupportedSdConfigs) {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** The only Alertmanager API infermon speaks (v1 was removed from Alertmanager). */
  public static final String API_V2 = "v2";
}
