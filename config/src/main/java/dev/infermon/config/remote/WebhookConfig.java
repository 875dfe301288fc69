package dev.infermon.config.remote;

import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.value.Secret;
import dev.infermon.config.value.Url;
import dev.infermon.config.yaml.YamlKey;
import dev.infermon.model.relabel.RelabelConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A webhook that gets every alert batch the Alertmanagers get ({@code alerting.webhooks[]}): the
 * same JSON list of alerts as Alertmanager's {@code POST /api/v2/alerts}, posted to {@code url}.
 * Prometheus has no such key; it is infermon's, for receivers that want the alerts without an
 * Alertmanager in between.
 *
 * @param url where batches are posted (http or https); a secret, as Alertmanager's webhook URL is:
 *     a chat hook's token is its path, so the redacted configuration and {@link #toString} show
 *     none of it
 * @param timeout per-request timeout, positive
 * @param alertRelabelConfigs relabeling of the alerts sent to this webhook only (a {@code drop}
 *     sends it a subset)
 * @param httpClient authorization, TLS and extra headers, as for an Alertmanager
 */
public record WebhookConfig(
    @YamlKey(secret = true) Url url,
    Duration timeout,
    List<RelabelConfig> alertRelabelConfigs,
    @YamlKey(inline = true) HttpClientConfig httpClient) {
  /** Alertmanager's default send timeout, so both kinds of receiver wait alike. */
  public static final Duration DEFAULT_TIMEOUT = AlertmanagerConfig.DEFAULT_TIMEOUT;

  public WebhookConfig {
    Objects.requireNonNull(url, "url");
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("webhook timeout must be positive, got " + timeout);
    }
    alertRelabelConfigs = List.copyOf(alertRelabelConfigs);
    Objects.requireNonNull(httpClient, "httpClient");
  }

  @Override
  public String toString() {
    return "WebhookConfig[url="
        + Secret.REDACTED
        + ", timeout="
        + timeout
        + ", alertRelabelConfigs="
        + alertRelabelConfigs
        + ", httpClient="
        + httpClient
        + "]";
  }
}
