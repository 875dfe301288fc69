package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.await;
import static dev.infermon.server.cli.ServeTestSupport.body;
import static dev.infermon.server.cli.ServeTestSupport.post;
import static dev.infermon.server.cli.ServeTestSupport.serve;
import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.server.runtime.Infermon;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rules and notifications wired into {@code infermon serve}: an always-firing alert shows in {@code
 * /api/v1/alerts} and {@code /api/v1/rules}, reaches a local Alertmanager stand-in as an API v2
 * POST, and is counted in {@code /metrics}; a reload with a broken rule file is refused.
 */
class AlertingServeTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private static final String RULES =
      """
      groups:
        - name: wiring
          interval: 1s
          rules:
            - alert: AlwaysFiring
              expr: vector(1)
              labels:
                severity: page
              annotations:
                summary: 'always {{ $value }}'
            - record: wiring:one
              expr: vector(1)
      """;

  @TempDir Path dir;
  private PostRecorder receiver;

  @BeforeEach
  void startReceiver() throws IOException {
    receiver = PostRecorder.start();
  }

  @AfterEach
  void stopReceiver() {
    receiver.close();
  }

  @Test
  void firingAlertIsServedAndPostedToAlertmanager() throws Exception {
    Files.createDirectories(dir.resolve("rules"));
    Files.writeString(dir.resolve("rules/wiring.yml"), RULES);
    Path cfg = dir.resolve("infermon.yml");
    Files.writeString(
        cfg,
        "global:\n"
            + "  evaluation_interval: 1s\n"
            + "  external_labels: {cluster: test}\n"
            + "rule_files: ['rules/*.yml']\n"
            + "alerting:\n"
            + "  alertmanagers:\n"
            + "    - static_configs:\n"
            + "        - targets: ['"
            + receiver.hostPort()
            + "']\n");
    Infermon m =
        serve(
                "--config.file=" + cfg,
                "--web.listen-address=127.0.0.1:0",
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.enable-lifecycle",
                "--rules.alert.resend-delay=2s",
                "--alertmanager.notification-queue-capacity=50")
            .infermon();
    try {
      await(
          "the alert in /api/v1/alerts",
          PATIENCE,
          () -> body(m, "/api/v1/alerts").contains("\"state\":\"firing\""));
      assertThat(body(m, "/api/v1/alerts"))
          .contains("\"alertname\":\"AlwaysFiring\"")
          .contains("\"severity\":\"page\"")
          .contains("\"summary\":\"always 1\"");

      String post = receiver.next(Duration.ofSeconds(20));
      assertThat(post).as("a POST reached the Alertmanager stand-in").isNotNull();
      assertThat(post)
          .startsWith("POST /api/v2/alerts [")
          .contains("\"alertname\":\"AlwaysFiring\"")
          .contains("\"cluster\":\"test\"") // external labels are added by the notifier
          .contains("\"startsAt\":")
          .contains("\"generatorURL\":\"http://127.0.0.1:" + m.port() + "/graph?g0.expr=");

      String rules = body(m, "/api/v1/rules");
      assertThat(rules)
          .contains("\"name\":\"wiring\"")
          .contains("\"name\":\"wiring:one\"")
          .contains("\"name\":\"LLMTimeToFirstTokenHigh\""); // the default pack is on
      await(
          "the notification counted",
          PATIENCE,
          () -> body(m, "/metrics").contains("infermon_notifications_sent_total{alertmanager="));
      assertThat(body(m, "/metrics"))
          .contains("infermon_notifications_queue_capacity 50.0")
          .contains("infermon_alerts{state=\"firing\"} 1.0")
          .contains("infermon_rule_group_rules{rule_group=\"" + dir.resolve("rules/wiring.yml"));
      assertThat(body(m, "/api/v1/status/flags"))
          .contains("\"rules.alert.resend-delay\":\"2s\"")
          .contains("\"rules.alert.for-grace-period\":\"10m\"");
      // As in Prometheus, ALERTS is written once the for state is restored (third evaluation).
      await(
          "ALERTS written",
          PATIENCE,
          () -> body(m, "/api/v1/query?query=ALERTS").contains("\"alertstate\":\"firing\""));

      Files.writeString(
          dir.resolve("rules/broken.yml"), "groups:\n  - name: x\n    rules:\n      - alert:\n");
      HttpResponse<String> reload = post(m, "/-/reload", new byte[0], "text/plain");
      assertThat(reload.statusCode()).isEqualTo(500);
      assertThat(reload.body()).contains("broken.yml");
      assertThat(body(m, "/api/v1/rules")).contains("\"name\":\"wiring\"");
    } finally {
      m.close();
    }
  }

  @Test
  void badRuleFileStopsStartUpWithItsProblem() throws Exception {
    Files.writeString(
        dir.resolve("bad.yml"), "groups:\n  - name: g\n    rules:\n      - recrd: x\n");
    Path cfg = dir.resolve("infermon.yml");
    Files.writeString(cfg, "rule_files: [bad.yml]\n");

    ServeTestSupport.Started s =
        serve(
            "--config.file=" + cfg,
            "--web.listen-address=127.0.0.1:0",
            "--storage.tsdb.path=" + dir.resolve("data"));

    assertThat(s.infermon()).isNull();
    assertThat(s.exitCode()).isEqualTo(1);
    assertThat(s.err()).contains("bad.yml").contains("recrd");
  }

  @Test
  void badAlertingFlagIsAUsageError() {
    ServeTestSupport.Started s =
        serve("--rules.alert.for-grace-period=soon", "--web.listen-address=127.0.0.1:0");

    assertThat(s.exitCode()).isEqualTo(2);
    assertThat(s.err()).contains("--rules.alert.for-grace-period");
  }
}
