package dev.infermon.notifier;

import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.value.Url;
import dev.infermon.model.relabel.RelabelConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One receiver of alert batches: an Alertmanager ({@code POST <prefix>/api/v2/alerts}) or a plain
 * webhook that gets the same JSON list. Immutable.
 *
 * @param url the full URL the batch is posted to
 * @param timeout per-request timeout (Prometheus: the alertmanager config's {@code timeout}, 10s)
 * @param http the configuration's HTTP client settings: TLS, redirects and HTTP/2 for the
 *     connection, {@code basic_auth}, {@code authorization} and {@code http_headers} for each
 *     request (credential files are read at each send, so a rotated token takes effect)
 */
public record Endpoint(URI url, Duration timeout, HttpClientConfig http) {
  public Endpoint {
    Objects.requireNonNull(url, "url");
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    Objects.requireNonNull(http, "http");
  }

  /** An Alertmanager at {@code scheme://hostPort} with an optional path prefix. */
  public static Endpoint alertmanager(
      String scheme, String hostPort, String pathPrefix, Duration timeout) {
    String prefix = pathPrefix == null ? "" : pathPrefix.replaceAll("/+$", "");
    if (!prefix.isEmpty() && !prefix.startsWith("/")) {
      prefix = "/" + prefix;
    }
    return new Endpoint(
        URI.create(scheme + "://" + hostPort + prefix + "/api/v2/alerts"),
        timeout,
        HttpClientConfig.DEFAULT);
  }

  /** A webhook receiving the JSON list of alerts. */
  public static Endpoint webhook(URI url, Duration timeout) {
    return new Endpoint(url, timeout, HttpClientConfig.DEFAULT);
  }

  /**
   * The URL as metrics and logs name it: a password in its user info replaced by {@code xxxxx}, as
   * Prometheus prints URLs (a webhook's URL may carry one).
   */
  public String name() {
    return new Url(url).redacted();
  }

  public Endpoint withHttp(HttpClientConfig h) {
    return new Endpoint(url, timeout, h);
  }

  /**
   * A group of endpoints that share a configuration: a batch counts as delivered to the set when
   * one endpoint took it. {@code alertRelabelConfigs} apply to this set only.
   */
  public record Set(
      String name, List<Endpoint> endpoints, List<RelabelConfig> alertRelabelConfigs) {
    public Set {
      Objects.requireNonNull(name, "name");
      endpoints = List.copyOf(endpoints);
      alertRelabelConfigs = List.copyOf(alertRelabelConfigs);
    }
  }
}
