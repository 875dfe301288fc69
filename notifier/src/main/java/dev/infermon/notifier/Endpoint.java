package dev.infermon.notifier;

import dev.infermon.config.scrape.HttpClientConfig;
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
 * @param name how metrics and logs name it: an Alertmanager's URL; for a webhook, never its path,
 *     query or user info, which often carry its token
 */
public record Endpoint(URI url, Duration timeout, HttpClientConfig http, String name) {
  public Endpoint {
    Objects.requireNonNull(url, "url");
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    Objects.requireNonNull(http, "http");
    Objects.requireNonNull(name, "name");
  }

  /** An Alertmanager at {@code scheme://hostPort} with an optional path prefix. */
  public static Endpoint alertmanager(
      String scheme, String hostPort, String pathPrefix, Duration timeout) {
    String prefix = pathPrefix == null ? "" : pathPrefix.replaceAll("/+$", "");
    if (!prefix.isEmpty() && !prefix.startsWith("/")) {
      prefix = "/" + prefix;
    }
    URI url = URI.create(scheme + "://" + hostPort + prefix + "/api/v2/alerts");
    return new Endpoint(url, timeout, HttpClientConfig.DEFAULT, url.toString());
  }

  /**
   * A webhook receiving the JSON list of alerts, named {@code <label> <scheme>://<host>[:<port>]}:
   * Alertmanager keeps a webhook's URL secret (a chat hook's token is its path), so metrics and
   * logs show its origin only, and the label tells two webhooks of one host apart.
   */
  public static Endpoint webhook(String label, URI url, Duration timeout) {
    String origin =
        url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort());
    return new Endpoint(url, timeout, HttpClientConfig.DEFAULT, label + " " + origin);
  }

  /** A webhook named {@code webhook} and its origin. */
  public static Endpoint webhook(URI url, Duration timeout) {
    return webhook("webhook", url, timeout);
  }

  public Endpoint withHttp(HttpClientConfig h) {
    return new Endpoint(url, timeout, h, name);
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
