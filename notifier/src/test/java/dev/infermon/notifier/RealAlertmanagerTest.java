package dev.infermon.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.relabel.Action;
import dev.infermon.model.relabel.RelabelConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against the real Alertmanager ({@code /usr/bin/prometheus-alertmanager}, Debian 0.25) started on
 * 127.0.0.1 with clustering off: alerts arrive with the right labels and annotations (external
 * labels and alert relabeling applied), resolve, and reach Alertmanager again after it restarts.
 * Skipped when the binary is absent. Every wait is bounded; the process is always stopped.
 */
class RealAlertmanagerTest {
  static final Path BINARY = Path.of("/usr/bin/prometheus-alertmanager");
  static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dir;
  private Process am;
  private int port;
  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();

  @BeforeEach
  void start() throws Exception {
    assumeTrue(Files.isExecutable(BINARY), "Alertmanager is not installed at " + BINARY);
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      port = s.getLocalPort();
    }
    Files.writeString(
        dir.resolve("am.yml"), "route:\n  receiver: blackhole\nreceivers:\n  - name: blackhole\n");
    startAlertmanager();
  }

  private void startAlertmanager() throws Exception {
    am =
        new ProcessBuilder(
                BINARY.toString(),
                "--config.file=" + dir.resolve("am.yml"),
                "--storage.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--cluster.listen-address=")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("am.log").toFile())
            .start();
    waitFor("Alertmanager ready", () -> get("/-/ready").statusCode() == 200);
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (am != null) {
      am.destroy();
      if (!am.waitFor(10, TimeUnit.SECONDS)) {
        am.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void alertsArriveResolveAndSurviveARestart() throws Exception {
    AtomicInteger sent = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    NotifierMetrics metrics =
        new NotifierMetrics() {
          @Override
          public void sent(String endpoint, int alerts) {
            sent.addAndGet(alerts);
          }

          @Override
          public void errors(String endpoint, int alerts) {
            errors.addAndGet(alerts);
          }
        };
    RelabelConfig dropDebug =
        RelabelConfig.builder()
            .sourceLabels(List.of("severity"))
            .regex("debug")
            .action(Action.DROP)
            .build();
    NotifierOptions opts =
        NotifierOptions.DEFAULTS
            .withExternalLabels(Labels.of("cluster", "eu-1"))
            .withAlertRelabelConfigs(List.of(dropDebug));
    Endpoint.Set set =
        new Endpoint.Set(
            "am",
            List.of(Endpoint.alertmanager("http", "127.0.0.1:" + port, "", Duration.ofSeconds(5))),
            List.of());
    long now = System.currentTimeMillis();
    Alert firing =
        new Alert(
            Labels.of(
                "alertname",
                "LLMTimeToFirstTokenHigh",
                "model_name",
                "llama",
                "severity",
                "warning"),
            Labels.of("summary", "TTFT p95 of llama is 4.75s"),
            now - 60_000,
            now + 4 * 60_000,
            "http://infermon:9090/graph?g0.expr=up&g0.tab=1");
    Alert debug =
        new Alert(
            Labels.of("alertname", "Noise", "severity", "debug"),
            Labels.EMPTY,
            now,
            now + 60_000,
            "");
    try (Notifier n = new Notifier(opts, List.of(set), metrics)) {
      n.send(List.of(firing, debug));
      JsonNode got = waitForAlert(a -> true);
      assertThat(got.get("labels").get("alertname").asText()).isEqualTo("LLMTimeToFirstTokenHigh");
      assertThat(got.get("labels").get("model_name").asText()).isEqualTo("llama");
      assertThat(got.get("labels").get("cluster").asText()).isEqualTo("eu-1");
      assertThat(got.get("annotations").get("summary").asText())
          .isEqualTo("TTFT p95 of llama is 4.75s");
      assertThat(got.get("generatorURL").asText())
          .isEqualTo("http://infermon:9090/graph?g0.expr=up&g0.tab=1");
      assertThat(got.get("status").get("state").asText()).isEqualTo("active");
      assertThat(alerts()).hasSize(1); // the debug alert was relabeled away

      // Resolved: endsAt in the past.
      n.send(
          List.of(
              new Alert(
                  firing.labels(),
                  firing.annotations(),
                  firing.startsAtMs(),
                  System.currentTimeMillis() - 1000,
                  firing.generatorUrl())));
      waitFor("alert resolved", () -> alerts().size() == 0);

      // Alertmanager restarts and forgets everything; the next (re)send delivers the alert again.
      stop();
      startAlertmanager();
      assertThat(alerts()).isEmpty();
      n.send(List.of(firing));
      JsonNode again = waitForAlert(a -> true);
      assertThat(again.get("labels").get("model_name").asText()).isEqualTo("llama");
      waitFor("three alerts counted as sent", () -> sent.get() == 3);
      assertThat(errors.get()).isZero();
    }
  }

  private JsonNode waitForAlert(Predicate<JsonNode> p) throws Exception {
    JsonNode[] found = new JsonNode[1];
    waitFor(
        "alert in Alertmanager",
        () -> {
          for (JsonNode a : alerts()) {
            if (p.test(a)) {
              found[0] = a;
              return true;
            }
          }
          return false;
        });
    return found[0];
  }

  private List<JsonNode> alerts() throws IOException, InterruptedException {
    HttpResponse<String> r = get("/api/v2/alerts");
    List<JsonNode> out = new java.util.ArrayList<>();
    json.readTree(r.body()).forEach(out::add);
    return out;
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  interface Check {
    boolean ok() throws Exception;
  }

  private static void waitFor(String what, Check check) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (check.ok()) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("timed out waiting for " + what, last);
  }
}
