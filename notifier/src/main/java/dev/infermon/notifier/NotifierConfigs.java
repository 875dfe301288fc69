package dev.infermon.notifier;

import dev.infermon.config.remote.AlertingConfig;
import dev.infermon.config.remote.AlertmanagerConfig;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.scrape.StaticConfig;
import dev.infermon.model.labels.Labels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds endpoint sets from the {@code alerting} section: one set per {@code alertmanagers} entry,
 * one endpoint per static target (discovered Alertmanagers are the discovery module's business).
 * Stateless.
 */
public final class NotifierConfigs {
  private NotifierConfigs() {}

  /** The sets of {@code alerting.alertmanagers}. */
  public static List<Endpoint.Set> sets(AlertingConfig alerting) {
    List<Endpoint.Set> out = new ArrayList<>();
    int i = 0;
    for (AlertmanagerConfig am : alerting.alertmanagers()) {
      List<Endpoint> endpoints = new ArrayList<>();
      Map<String, String> headers = headers(am.httpClient());
      for (StaticConfig sc : am.staticConfigs()) {
        for (String target : sc.targets()) {
          endpoints.add(
              Endpoint.alertmanager(am.scheme(), target, am.pathPrefix(), am.timeout())
                  .withHeaders(headers));
        }
      }
      out.add(new Endpoint.Set("config-" + i++, endpoints, am.alertRelabelConfigs()));
    }
    return out;
  }

  /** Options from the alerting section and the external labels. */
  public static NotifierOptions options(AlertingConfig alerting, Labels externalLabels) {
    return NotifierOptions.DEFAULTS
        .withExternalLabels(externalLabels)
        .withAlertRelabelConfigs(alerting.alertRelabelConfigs());
  }

  private static Map<String, String> headers(HttpClientConfig http) {
    Map<String, String> h = new HashMap<>();
    http.basicAuth()
        .ifPresent(
            b ->
                h.put(
                    "Authorization",
                    "Basic "
                        + Base64.getEncoder()
                            .encodeToString(
                                (b.username() + ":" + b.password().reveal())
                                    .getBytes(StandardCharsets.UTF_8))));
    http.authorization()
        .ifPresent(a -> h.put("Authorization", a.type() + " " + a.credentials().reveal()));
    return h;
  }
}
