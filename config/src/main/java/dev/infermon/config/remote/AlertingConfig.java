package dev.infermon.config.remote;

import dev.infermon.model.relabel.RelabelConfig;
import java.util.List;

/**
 * The {@code alerting} section: relabeling applied to every alert, the Alertmanagers, and the
 * webhooks that get the same alerts.
 */
public record AlertingConfig(
    List<RelabelConfig> alertRelabelConfigs,
    List<AlertmanagerConfig> alertmanagers,
    List<WebhookConfig> webhooks) {
  public static final AlertingConfig NONE = new AlertingConfig(List.of(), List.of(), List.of());

  public AlertingConfig {
    alertRelabelConfigs = List.copyOf(alertRelabelConfigs);
    alertmanagers = List.copyOf(alertmanagers);
    webhooks = List.copyOf(webhooks);
  }

  /** True when alerts have somewhere to go. */
  public boolean hasReceivers() {
    return !alertmanagers.isEmpty() || !webhooks.isEmpty();
  }
}
