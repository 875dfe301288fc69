package dev.infermon.config.scrape;

import dev.infermon.config.value.Secret;
import java.util.List;
import java.util.Map;

/**
 * Proxy settings of an HTTP client. Accepted so that existing files load; infermon connects
 * directly and warns when a proxy is configured.
 */
public record ProxyConfig(
    String proxyUrl,
    String noProxy,
    boolean proxyFromEnvironment,
    Map<String, List<Secret>> proxyConnectHeader) {
  public static final ProxyConfig NONE = new ProxyConfig("", "", false, Map.of());

  public boolean isSet() {
    return !equals(NONE);
  }
}
