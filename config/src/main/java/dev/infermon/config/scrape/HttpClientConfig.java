package dev.infermon.config.scrape;

import dev.infermon.config.yaml.YamlKey;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP client settings that Prometheus inlines into scrape, discovery, Alertmanager and remote
 * configs. At most one of basic_auth, authorization and oauth2 is set.
 */
public record HttpClientConfig(
    Optional<BasicAuth> basicAuth,
    Optional<Authorization> authorization,
    Optional<OAuth2> oauth2,
    TlsConfig tlsConfig,
    boolean followRedirects,
    boolean enableHttp2,
    @YamlKey(inline = true) ProxyConfig proxy,
    Map<String, HttpHeader> httpHeaders) {
  /** prometheus/common's {@code DefaultHTTPClientConfig}: follow redirects, HTTP/2 on. */
  public static final HttpClientConfig DEFAULT =
      new HttpClientConfig(
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          TlsConfig.DEFAULT,
          true,
          true,
          ProxyConfig.NONE,
          Map.of());

  /** Remote write's default: like {@link #DEFAULT} but HTTP/2 off (Prometheus 3). */
  public static final HttpClientConfig REMOTE_WRITE_DEFAULT =
      new HttpClientConfig(
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          TlsConfig.DEFAULT,
          true,
          false,
          ProxyConfig.NONE,
          Map.of());
}
