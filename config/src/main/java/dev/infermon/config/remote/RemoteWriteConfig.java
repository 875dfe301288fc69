package dev.infermon.config.remote;

import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.value.Url;
import dev.infermon.config.yaml.YamlKey;
import dev.infermon.model.relabel.RelabelConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** One remote-write destination ({@code remote_write[]}). */
public record RemoteWriteConfig(
    Url url,
    String name,
    Duration remoteTimeout,
    Map<String, String> headers,
    List<RelabelConfig> writeRelabelConfigs,
    boolean sendExemplars,
    boolean sendNativeHistograms,
    boolean roundRobinDns,
    String protobufMessage,
    QueueConfig queueConfig,
    MetadataConfig metadataConfig,
    @YamlKey(inline = true) HttpClientConfig httpClient) {
  public static final Duration DEFAULT_REMOTE_TIMEOUT = Duration.ofSeconds(30);

  /** Remote-write 1.0, the only message infermon sends. */
  public static final String WRITE_V1 = "prometheus.WriteRequest";
}
