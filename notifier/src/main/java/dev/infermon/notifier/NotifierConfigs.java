package dev.infermon.notifier;

import dev.infermon.config.remote.AlertingConfig;
import dev.infermon.config.remote.AlertmanagerConfig;
import dev.infermon.config.remote.WebhookConfig;
import dev.infermon.config.scrape.StaticConfig;
import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds endpoint sets from the {@code alerting} section: one set per {@code alertmanagers} entry,
 * one endpoint per static target (discovered Alertmanagers are the discovery module's business),
 * then one set per {@code webhooks} entry, so a webhook's failure counts apart from the
 * Alertmanagers' and every receiver gets every batch. Stateless.
 */
public final class NotifierConfigs {
  private NotifierConfigs() {}

  /** The sets of {@code alerting.alertmanagers}, then those of {@code alerting.webhooks}. */
  public static List<Endpoint.Set> sets(AlertingConfig alerting) {
    List<Endpoint.Set> out = new ArrayList<>();
    int i = 0;
    for (AlertmanagerConfig am : alerting.alertmanagers()) {
      List<Endpoint> endpoints = new ArrayList<>();
      for (StaticConfig sc : am.staticConfigs()) {
        for (String target : sc.targets()) {
          endpoints.add(
              Endpoint.alertmanager(am.scheme(), target, am.pathPrefix(), am.timeout())
                  .withHttp(am.httpClient()));
        }
      }
      out.add(new Endpoint.Set("config-" + i++, endpoints, am.alertRelabelConfigs()));
    }
    int w = 0;
    for (WebhookConfig hook : alerting.webhooks()) {
      String label = "webhooks[" + w + "]";
      Endpoint e =
          Endpoint.webhook(label, hook.url().uri(), hook.timeout()).withHttp(hook.httpClient());
      out.add(new Endpoint.Set("webhook-" + w++, List.of(e), hook.alertRelabelConfigs()));
    }
    return out;
  }

  /** Options from the alerting section and the external labels. */
  public static NotifierOptions options(AlertingConfig alerting, Labels externalLabels) {
    return NotifierOptions.DEFAULTS
        .withExternalLabels(externalLabels)
        .withAlertRelabelConfigs(alerting.alertRelabelConfigs());
  }
}
