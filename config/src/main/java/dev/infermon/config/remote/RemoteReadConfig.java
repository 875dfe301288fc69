package dev.infermon.config.remote;

import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.value.Url;
import dev.infermon.config.yaml.YamlKey;
import java.time.Duration;
import java.util.Map;

/**
 * One remote-read source ({@code remote_read[]}). Accepted and typed so that existing files load;
 * infermon queries remote clusters through {@code storage.remote} instead.
 */
public record RemoteReadConfig(
    Url url,
    String name,
    Duration remoteTimeout,
    long chunkedReadLimit,
    Map<String, String> headers,
    boolean readRecent,
    Map<String, String> requiredMatchers,
    boolean filterExternalLabels,
    @YamlKey(inline = true) HttpClientConfig httpClient) {
  public static final Duration DEFAULT_REMOTE_TIMEOUT = Duration.ofMinutes(1);
  public static final long DEFAULT_CHUNKED_READ_LIMIT = 50_000_000L;
}
