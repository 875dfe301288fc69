package dev.infermon.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.remote.AlertingConfig;
import dev.infermon.model.labels.Labels;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code alerting} section as {@link NotifierConfigs} turns it into endpoint sets, sending to a
 * loopback server that records each request's path, headers and alerts: webhooks get what the
 * Alertmanagers get, and both apply the HTTP client settings of their configuration.
 */
class NotifierConfigsTest {
  /** One request the loopback server received. */
  record Received(String path, Map<String, List<String>> headers, JsonNode alerts) {
    String header(String name) {
      List<String> v = headers.get(name);
      return v == null ? null : v.get(0);
    }

    List<String> severities() {
      List<String> out = new ArrayList<>();
      alerts.forEach(a -> out.add(a.at("/labels/severity").asText()));
      return out;
    }
  }

  @TempDir Path dir;
  private HttpServer server;
  private final List<Received> received = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        ex -> {
          try (ex) {
            JsonNode body = new ObjectMapper().readTree(ex.getRequestBody().readAllBytes());
            received.add(
                new Received(
                    ex.getRequestURI().getPath(), Map.copyOf(ex.getRequestHeaders()), body));
            ex.sendResponseHeaders(200, -1);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String base() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  private static AlertingConfig alerting(String yaml) throws Exception {
    return ConfigLoader.create().parse(yaml, "infermon.yml").alerting();
  }

  private static Alert alert(String name, String severity) {
    return new Alert(
        Labels.of("alertname", name, "severity", severity),
        Labels.of("cause", "kv-pressure on pod-0: KV cache at 95%"),
        1_700_000_000_000L,
        1_700_000_240_000L,
        "http://x/graph");
  }

  private void await(String what, BooleanSupplier ok) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!ok.getAsBoolean()) {
      assertThat(System.nanoTime())
          .as("waiting for " + what + ": " + received)
          .isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private List<Received> at(String path) {
    return received.stream().filter(r -> r.path().equals(path)).toList();
  }

  @Test
  void webhooksGetTheBatchesTheAlertmanagersGetWithTheirOwnSettings() throws Exception {
    Path token = Files.writeString(dir.resolve("hook-token"), "tok-1\n");
    AlertingConfig cfg =
        alerting(
            "alerting:\n"
                + "  alertmanagers:\n"
                + "    - path_prefix: /am\n"
                + "      static_configs: [{targets: ['"
                + base()
                + "']}]\n"
                + "  webhooks:\n"
                + "    - url: http://"
                + base()
                + "/all?team=llm\n"
                + "      timeout: 5s\n"
                + "      authorization: {credentials_file: '"
                + token
                + "'}\n"
                + "      http_headers: {X-Team: {values: [llm]}}\n"
                + "    - url: http://"
                + base()
                + "/pages\n"
                + "      basic_auth: {username: u, password: p}\n"
                + "      alert_relabel_configs:\n"
                + "        - {source_labels: [severity], regex: page, action: keep}\n");
    List<Endpoint.Set> sets = NotifierConfigs.sets(cfg);
    assertThat(sets)
        .extracting(Endpoint.Set::name)
        .containsExactly("config-0", "webhook-0", "webhook-1");
    try (Notifier n = new Notifier(NotifierOptions.DEFAULTS, sets, NotifierMetrics.NONE)) {
      n.send(List.of(alert("A", "page"), alert("B", "warning")));
      await("three requests", () -> received.size() == 3);
      // a rotated token is read at the next send
      Files.writeString(token, "tok-2\n");
      n.send(List.of(alert("C", "page")));
      await("six requests", () -> received.size() == 6);
    }
    assertThat(at("/am/api/v2/alerts"))
        .extracting(Received::severities)
        .containsExactly(List.of("page", "warning"), List.of("page"));
    List<Received> all = at("/all");
    assertThat(all)
        .extracting(Received::severities)
        .containsExactly(List.of("page", "warning"), List.of("page"));
    assertThat(all.get(0).alerts().get(0).at("/annotations/cause").asText())
        .isEqualTo("kv-pressure on pod-0: KV cache at 95%");
    assertThat(all)
        .extracting(r -> r.header("Authorization"))
        .containsExactly("Bearer tok-1", "Bearer tok-2");
    assertThat(all).extracting(r -> r.header("X-team")).containsOnly("llm");
    assertThat(all).extracting(r -> r.header("Content-type")).containsOnly("application/json");
    List<Received> pages = at("/pages");
    assertThat(pages)
        .extracting(Received::severities)
        .containsExactly(List.of("page"), List.of("page"));
    assertThat(pages).extracting(r -> r.header("Authorization")).containsOnly("Basic dTpw");
    assertThat(at("/am/api/v2/alerts"))
        .extracting(r -> r.header("Authorization"))
        .containsOnly((String) null);
  }

  @Test
  void metricsAndLogsNameAWebhookByItsPlaceAndOriginOnly() throws Exception {
    List<String> named = new CopyOnWriteArrayList<>();
    NotifierMetrics m =
        new NotifierMetrics() {
          @Override
          public void sent(String endpoint, int alerts) {
            named.add(endpoint);
          }
        };
    AlertingConfig cfg =
        alerting(
            "alerting:\n  webhooks:\n    - url: http://127.0.0.1:1/unused\n"
                + "    - url: http://u:hunter2@"
                + base()
                + "/hooks/T000/B000/chat-token?key=k1\n");
    try (Notifier n = new Notifier(NotifierOptions.DEFAULTS, NotifierConfigs.sets(cfg), m)) {
      n.send(List.of(alert("A", "page")));
      await("one delivery", () -> !named.isEmpty());
    }
    assertThat(named).containsExactly("webhooks[1] http://" + base());
    assertThat(received.get(0).path()).isEqualTo("/hooks/T000/B000/chat-token");
    assertThat(received.get(0).header("Authorization"))
        .as("the URL's user info is the request's basic authorization")
        .isEqualTo("Basic dTpodW50ZXIy");
  }

  @Test
  void anAlertmanagersCredentialsFileAndHeadersReachItsRequests() throws Exception {
    Path token = Files.writeString(dir.resolve("am-token"), "am-secret\n");
    AlertingConfig cfg =
        alerting(
            "alerting:\n"
                + "  alertmanagers:\n"
                + "    - static_configs: [{targets: ['"
                + base()
                + "']}]\n"
                + "      authorization: {type: Token, credentials_file: '"
                + token
                + "'}\n"
                + "      http_headers: {X-Scope-OrgID: {values: [team-llm]}}\n");
    try (Notifier n =
        new Notifier(NotifierOptions.DEFAULTS, NotifierConfigs.sets(cfg), NotifierMetrics.NONE)) {
      n.send(List.of(alert("A", "page")));
      await("one request", () -> received.size() == 1);
    }
    Received r = received.get(0);
    assertThat(r.path()).isEqualTo("/api/v2/alerts");
    assertThat(r.header("Authorization")).isEqualTo("Token am-secret");
    assertThat(r.header("X-scope-orgid")).isEqualTo("team-llm");
  }
}
