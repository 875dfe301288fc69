package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.server.demo.Demo;
import dev.infermon.server.runtime.ServeSettings;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.Scenario;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The default alerts reach the real Alertmanager ({@code /usr/bin/prometheus-alertmanager}, Debian
 * 0.25, clustering off) with their cause: {@code infermon demo}'s machinery runs a small fleet in
 * the KV-pressure scenario with 30 minutes of backfilled history, its generated configuration
 * extended with the Alertmanager and the pack's {@code for} set to 0 (so the backfilled history
 * fires the alerts at the first evaluation instead of after 10 minutes of wall time). What
 * Alertmanager's {@code /api/v2/alerts} then holds for the TTFT and queue alerts names KV pressure
 * as the cause, with evidence, and the dashboard, incident and generator links under {@code
 * --web.external-url} (a reverse proxy's URL with a path); infermon serves the incident page and
 * its data at the link's path. Skipped without the binary; every wait is bounded.
 */
class AlertCauseAlertmanagerTest {
  static final Path BINARY = Path.of("/usr/bin/prometheus-alertmanager");
  static final Duration WAIT = Duration.ofSeconds(40);
  static final String PROXY = "https://proxy.example.com/infermon";

  @TempDir Path dir;
  private Process am;
  private int amPort;
  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();

  @BeforeEach
  void startAlertmanager() throws Exception {
    assumeTrue(Files.isExecutable(BINARY), "Alertmanager is not installed at " + BINARY);
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      amPort = s.getLocalPort();
    }
    Files.writeString(
        dir.resolve("am.yml"), "route:\n  receiver: blackhole\nreceivers:\n  - name: blackhole\n");
    am =
        new ProcessBuilder(
                BINARY.toString(),
                "--config.file=" + dir.resolve("am.yml"),
                "--storage.path=" + dir.resolve("am-data"),
                "--web.listen-address=127.0.0.1:" + amPort,
                "--cluster.listen-address=")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("am.log").toFile())
            .start();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!ready()) {
      assertThat(System.nanoTime()).as("Alertmanager ready").isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private boolean ready() {
    try {
      return get("/-/ready").statusCode() == 200;
    } catch (Exception e) {
      return false;
    }
  }

  @AfterEach
  void stopAlertmanager() throws InterruptedException {
    if (am != null) {
      am.destroy();
      if (!am.waitFor(10, TimeUnit.SECONDS)) {
        am.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void kvPressureAlertsArriveWithKvPressureAsTheirCause() throws Exception {
    FleetConfig fleet =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .scenario(Scenario.KV_PRESSURE)
            .build();
    String extra =
        "alerting:\n"
            + "  alertmanagers:\n"
            + "    - static_configs:\n"
            + "        - targets: ['127.0.0.1:"
            + amPort
            + "']\n"
            + "llm:\n"
            + "  alerts: {ttft_for: 0s, waiting_for: 0s, failure_for: 0s}\n";
    Demo demo =
        Demo.start(
            new Demo.Options(fleet, List.of(), Duration.ofMinutes(30), Duration.ofSeconds(5)),
            (config, workDir) -> settings(config, workDir, extra),
            "test",
            new PrintWriter(new StringWriter()));
    try {
      JsonNode ttft = waitForAlert("LLMTimeToFirstTokenHigh");
      JsonNode queued = waitForAlert("LLMRequestsQueuedWhilePreempting");
      for (JsonNode a : List.of(ttft, queued)) {
        JsonNode ann = a.get("annotations");
        // the surefire report keeps what Alertmanager received (docs/alerting.md quotes it)
        System.out.println(a.path("labels").path("alertname").asText() + " " + ann);
        assertThat(ann.path("cause").asText()).as(a.toString()).startsWith("kv-pressure on ");
        assertThat(ann.path("cause").asText()).contains("KV cache");
        assertThat(ann.path("cause_evidence").asText()).contains("KV cache usage").contains(" = ");
        assertThat(ann.path("dashboard_url").asText())
            .as("under --web.external-url")
            .startsWith(PROXY + "/dashboard?namespace=inference&model=meta-llama%2FLlama-3.1-8B")
            .contains("&from=")
            .contains("&to=");
        assertThat(a.path("generatorURL").asText()).startsWith(PROXY + "/graph?g0.expr=");
        assertThat(ann.path("summary").asText()).as("the rule's own annotations stay").isNotEmpty();
        assertThat(ann.has("cause_error")).isFalse();
        // the incident page, under the proxy's URL; infermon serves the page and its data at the
        // path the proxy strips
        String incident = ann.path("incident_url").asText();
        assertThat(incident).startsWith(PROXY + "/incident?alert=");
        String path = incident.substring(PROXY.length());
        HttpResponse<String> page = getFrom(demo.uiUrl(), path);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("/ui/app.js");
        String alert = path.substring("/incident?alert=".length());
        HttpResponse<String> data = getFrom(demo.uiUrl(), "/api/v1/llm/incident?alert=" + alert);
        assertThat(data.statusCode()).as(data.body()).isEqualTo(200);
        assertThat(json.readTree(data.body()).at("/data/alert/alertname").asText())
            .isEqualTo(a.path("labels").path("alertname").asText());
      }
    } finally {
      demo.close();
    }
  }

  /** {@code serve}'s settings for the demo's generated configuration with {@code extra} added. */
  private static ServeSettings settings(Path config, Path workDir, String extra) {
    try {
      Files.writeString(config, extra, StandardOpenOption.APPEND);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve)
        .parseArgs(
            "--config.file=" + config,
            "--web.listen-address=127.0.0.1:0",
            // as behind a reverse proxy that serves infermon under a path
            "--web.external-url=" + PROXY + "/",
            "--storage.tsdb.path=" + workDir.resolve("data"));
    return serve.settings(System.getenv());
  }

  private JsonNode waitForAlert(String name) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      HttpResponse<String> r = get("/api/v2/alerts");
      if (r.statusCode() == 200) {
        for (JsonNode a : json.readTree(r.body())) {
          if (name.equals(a.path("labels").path("alertname").asText())
              && a.path("annotations").has("cause")) {
            return a;
          }
        }
      }
      assertThat(System.nanoTime())
          .as(name + " with a cause in Alertmanager; it holds " + r.body())
          .isLessThan(deadline);
      Thread.sleep(500);
    }
  }

  private HttpResponse<String> getFrom(String base, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base.replaceAll("/$", "") + path))
            .timeout(Duration.ofSeconds(60))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + amPort + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
