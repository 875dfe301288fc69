package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.HTTP;
import static dev.infermon.server.cli.ServeTestSupport.await;
import static dev.infermon.server.cli.ServeTestSupport.serve;
import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.server.runtime.Infermon;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@code POST /-/reload} does to each component, as a table: the configuration infermon starts
 * with, the one the file holds at the reload, the answer, and what holds before and after. A
 * refused reload names the component and the key, and the old configuration keeps running (the
 * status page shows it); {@code infermon_config_last_reload_successful} follows every attempt.
 * {@code {receiver}} in a configuration is a stand-in Alertmanager and remote-write receiver on
 * 127.0.0.1, {@code {port}} infermon's own port, {@code {dir}} the test's directory.
 */
class ReloadServeTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final String RULES =
      "groups:\n"
          + "  - name: reload\n"
          + "    interval: 1s\n"
          + "    rules:\n"
          + "      - alert: AlwaysFiring\n"
          + "        expr: vector(1)\n";

  @org.junit.jupiter.api.io.TempDir Path dir;
  private PostRecorder receiver;

  /** What a row checks against the running server. */
  @FunctionalInterface
  interface Check {
    void check(ReloadServeTest t, Infermon m) throws Exception;
  }

  /**
   * @param listenFlag whether {@code --web.listen-address=127.0.0.1:0} is given (else the file's
   *     {@code web.listen_address} decides)
   * @param status the reload's status code
   * @param answer what the reload's body contains (empty for a 200)
   */
  record Row(
      String name,
      String initial,
      String next,
      boolean listenFlag,
      Check before,
      int status,
      String answer,
      Check after) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final Check NOTHING = (t, m) -> {};

  static Stream<Row> rows() {
    return Stream.of(
        new Row(
            "web.auth: a removed token is refused at once, an added one works",
            "web:\n  auth:\n    bearer_tokens: [old-token, kept-token]\n",
            "web:\n  auth:\n    bearer_tokens: [kept-token, new-token]\n",
            true,
            (t, m) -> {
              assertThat(t.status(m, "/api/v1/status/buildinfo", "old-token")).isEqualTo(200);
              assertThat(t.status(m, "/api/v1/status/buildinfo", "new-token")).isEqualTo(401);
            },
            200,
            "",
            (t, m) -> {
              assertThat(t.status(m, "/api/v1/status/buildinfo", "old-token")).isEqualTo(401);
              assertThat(t.status(m, "/api/v1/status/buildinfo", "new-token")).isEqualTo(200);
              assertThat(t.status(m, "/api/v1/status/buildinfo", "kept-token")).isEqualTo(200);
            }),
        new Row(
            "web.max_request_body_size: the next request is held to it",
            "{}\n",
            "web:\n  max_request_body_size: 1KB\n",
            true,
            (t, m) -> assertThat(t.bigQuery(m)).isNotEqualTo(413),
            200,
            "",
            (t, m) -> assertThat(t.bigQuery(m)).isEqualTo(413)),
        new Row(
            "web.listen_address is refused; the old configuration stays",
            "web:\n  listen_address: 127.0.0.1:0\n",
            "web:\n  listen_address: 127.0.0.1:1\n",
            false,
            NOTHING,
            500,
            "web: web.listen_address cannot change while infermon runs",
            (t, m) ->
                assertThat(t.text(m, "/api/v1/status/config"))
                    .contains("listen_address: 127.0.0.1:0")),
        new Row(
            "storage.mode is refused",
            "{}\n",
            "storage:\n  mode: agent\n",
            true,
            NOTHING,
            500,
            "storage: storage.mode cannot change while infermon runs",
            (t, m) -> assertThat(t.text(m, "/api/v1/status/config")).contains("mode: embedded")),
        new Row(
            "storage.remote is read in remote mode only: a change to it is taken",
            "{}\n",
            "storage:\n  remote:\n    timeout: 1m\n",
            true,
            NOTHING,
            200,
            "",
            NOTHING),
        new Row(
            "storage.tsdb.retention applies",
            "{}\n",
            "storage:\n  tsdb:\n    retention:\n      time: 1h\n",
            true,
            NOTHING,
            200,
            "",
            (t, m) -> assertThat(t.text(m, "/api/v1/status/config")).contains("time: 1h")),
        new Row(
            "global.evaluation_interval and external_labels are refused, each by its component",
            "global:\n  evaluation_interval: 1m\n",
            "global:\n  evaluation_interval: 30s\n  external_labels: {cluster: b}\n",
            true,
            NOTHING,
            500,
            "query-engine: global.evaluation_interval cannot change while infermon runs",
            (t, m) ->
                assertThat(t.lastReloadBody)
                    .contains("alerting: global.external_labels cannot change while infermon runs")
                    .contains("restart to apply it")),
        new Row(
            "remote_write: an added endpoint receives what is appended next",
            "{}\n",
            "remote_write:\n"
                + "  - url: http://{receiver}/receive\n"
                + "    queue_config: {batch_send_deadline: 100ms}\n",
            true,
            NOTHING,
            200,
            "",
            (t, m) -> {
              t.appendOne(m);
              t.receiver.await("POST /receive", PATIENCE);
            }),
        new Row(
            "alerting: an added Alertmanager receives the firing alert",
            "global:\n  evaluation_interval: 1s\nrule_files: ['{dir}/rules.yml']\n",
            "global:\n  evaluation_interval: 1s\nrule_files: ['{dir}/rules.yml']\n"
                + "alerting:\n  alertmanagers:\n    - static_configs:\n"
                + "        - targets: ['{receiver}']\n",
            true,
            NOTHING,
            200,
            "",
            (t, m) ->
                assertThat(t.receiver.await("POST /api/v2/alerts", PATIENCE))
                    .contains("AlwaysFiring")),
        new Row(
            "alerting: a rule file that does not load is named, and the rules stay",
            "rule_files: ['{dir}/rules.yml']\n",
            "rule_files: ['{dir}/rules.yml', '{dir}/broken.yml']\n",
            true,
            NOTHING,
            500,
            "alerting: ",
            (t, m) -> {
              assertThat(t.lastReloadBody).contains("broken.yml");
              assertThat(t.text(m, "/api/v1/rules")).contains("AlwaysFiring");
            }),
        new Row(
            "scrape and discovery: an added job is discovered and scraped",
            "{}\n",
            "scrape_configs:\n"
                + "  - job_name: self\n"
                + "    scrape_interval: 1s\n"
                + "    static_configs:\n"
                + "      - targets: ['127.0.0.1:{port}']\n",
            true,
            (t, m) -> assertThat(t.text(m, "/api/v1/targets")).doesNotContain("\"job\":\"self\""),
            200,
            "",
            (t, m) ->
                await(
                    "the new job's target up",
                    PATIENCE,
                    () ->
                        t.text(m, "/api/v1/query?query=up%7Bjob%3D%22self%22%7D")
                            .contains("\"1\"]"))),
        new Row(
            "llm: the quantiles the dashboard offers change",
            "llm:\n  quantiles: [0.5, 0.95]\n",
            "llm:\n  quantiles: [0.5, 0.75]\n",
            true,
            (t, m) -> assertThat(t.text(m, "/api/v1/llm/dashboard/panels")).contains("0.95"),
            200,
            "",
            (t, m) ->
                assertThat(t.text(m, "/api/v1/llm/dashboard/panels"))
                    .contains("0.75")
                    .doesNotContain("0.95")));
  }

  private String lastReloadBody = "";

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void reload(Row row) throws Exception {
    Files.writeString(dir.resolve("rules.yml"), RULES);
    Files.writeString(
        dir.resolve("broken.yml"), "groups:\n  - name: x\n    rules:\n      - alert:\n");
    Path cfg = dir.resolve("infermon.yml");
    Files.writeString(cfg, fill(row.initial(), 0));
    List<String> args = new ArrayList<>();
    args.add("--config.file=" + cfg);
    args.add("--storage.tsdb.path=" + dir.resolve("data"));
    args.add("--web.enable-lifecycle");
    args.add("--web.enable-remote-write-receiver");
    args.add("--rules.alert.resend-delay=1s");
    if (row.listenFlag()) {
      args.add("--web.listen-address=127.0.0.1:0");
    }
    Infermon m = serve(args.toArray(String[]::new)).infermon();
    assertThat(m).as("infermon started").isNotNull();
    try {
      assertThat(text(m, "/metrics")).contains("infermon_config_last_reload_successful 1.0");
      row.before().check(this, m);
      Files.writeString(cfg, fill(row.next(), m.port()));
      long beforeReload = System.currentTimeMillis() / 1000;
      HttpResponse<String> r = postReload(m);
      lastReloadBody = r.body();
      assertThat(r.statusCode()).as(r.body()).isEqualTo(row.status());
      assertThat(r.body()).contains(row.answer());
      String metrics = text(m, "/metrics");
      if (row.status() == 200) {
        assertThat(metrics).contains("infermon_config_last_reload_successful 1.0");
        assertThat(successTimestamp(metrics)).isGreaterThanOrEqualTo(beforeReload);
      } else {
        assertThat(metrics).contains("infermon_config_last_reload_successful 0.0");
        assertThat(successTimestamp(metrics)).isLessThanOrEqualTo(beforeReload + 1);
      }
      row.after().check(this, m);
    } finally {
      m.close();
    }
  }

  private String fill(String yaml, int port) {
    return yaml.replace("{receiver}", receiver.hostPort())
        .replace("{port}", Integer.toString(port))
        .replace("{dir}", dir.toString());
  }

  private static double successTimestamp(String metrics) {
    return metrics
        .lines()
        .filter(l -> l.startsWith("infermon_config_last_reload_success_timestamp_seconds "))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(' ') + 1)))
        .findFirst()
        .orElseThrow();
  }

  /** {@code POST /-/reload}, with the one token every auth row keeps. */
  private static HttpResponse<String> postReload(Infermon m) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port() + "/-/reload"))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer kept-token")
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The body of a GET with the token every auth row keeps; a failed request fails the test. */
  private String text(Infermon m, String path) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port() + path))
                  .timeout(Duration.ofSeconds(30))
                  .header("Authorization", "Bearer kept-token")
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private int status(Infermon m, String path, String token) throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port() + path))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  /** A form-encoded query of 4 KB. */
  private int bigQuery(Infermon m) throws Exception {
    String form = "query=" + "1%2B".repeat(1300) + "1";
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port() + "/api/v1/query"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  /** One sample through the remote-write receiver, so it goes through the storage's fanout. */
  private void appendOne(Infermon m) throws Exception {
    HttpResponse<String> w =
        ServeTestSupport.remoteWrite(
            m, ServeCommandTest.writeRequest("reloaded", System.currentTimeMillis(), 1));
    assertThat(w.statusCode()).isEqualTo(204);
  }

  @BeforeEach
  void startReceiver() throws IOException {
    receiver = PostRecorder.start();
  }

  @AfterEach
  void stopReceiver() {
    receiver.close();
  }
}
