package dev.infermon.simulator.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.replay.Capture;
import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.replay.ReplayTarget;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.textparse.Format;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Replayed captures over HTTP: a page per port in its capture's format (OpenMetrics as
 * OpenMetrics), gzip, the inventory, and the printed file_sd and prometheus.yml with each target's
 * job and labels.
 */
class ReplayServerTest {
  private static final long T0 = 1_790_000_000_000L;
  private final HttpClient client = HttpClient.newHttpClient();

  private static final String OPENMETRICS =
      "# TYPE jobs counter\njobs_total 3\njobs_created 1.7e+09\n# EOF\n";

  private ReplayFleet fleet() throws Exception {
    Capture om = Capture.parse("jobs.om", OPENMETRICS.getBytes(StandardCharsets.UTF_8));
    return ReplayFleet.of(
        List.of(
            Captures.get("vllm-0.4.3.txt")
                .target("pod", "opt-0", "workload_name", "opt", "role", "decode"),
            Captures.get("upcloud-l40s-single-gpu-no-pod.prom").target(),
            ReplayTarget.of(Path.of("jobs.om"), om, Map.of("job", "batch"), Duration.ofMinutes(1))),
        T0);
  }

  private HttpResponse<byte[]> get(String url, boolean gzip) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
    if (gzip) {
      b.header("Accept-Encoding", "gzip");
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void servesEachCaptureInItsFormatAtTheClocksTime() throws Exception {
    Clock clock = Clock.fixed(Instant.ofEpochMilli(T0 + 30_000), ZoneOffset.UTC);
    try (ReplayServer server =
        ReplayServer.start(fleet(), new ReplayServer.Options("127.0.0.1", 0), clock)) {
      ReplayTarget jobs = server.fleet().target("jobs");
      HttpResponse<byte[]> om = get(server.url(jobs), false);
      assertThat(om.headers().firstValue("Content-Type"))
          .hasValue(Format.OPENMETRICS.contentType());
      assertThat(new String(om.body(), StandardCharsets.UTF_8))
          .isEqualTo("# TYPE jobs counter\njobs_total 4\njobs_created 1.7e+09\n# EOF\n");

      ReplayTarget opt = server.fleet().target("opt-0");
      HttpResponse<byte[]> zipped = get(server.url(opt), true);
      assertThat(zipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
      String page =
          new String(
              new GZIPInputStream(new ByteArrayInputStream(zipped.body())).readAllBytes(),
              StandardCharsets.UTF_8);
      assertThat(page).isEqualTo(server.fleet().render("opt-0", T0 + 30_000));

      String inventory =
          new String(
              get("http://127.0.0.1:" + server.controlPort() + "/-/inventory", false).body(),
              StandardCharsets.UTF_8);
      assertThat(inventory)
          .contains("\"name\":\"opt-0\",\"url\":\"" + server.url(opt) + "\",\"job\":\"inference\"")
          .contains("\"capture\":\"vllm/vllm-0.4.3.txt\"")
          .contains(
              "\"labels\":{\"namespace\": \"replay\", \"pod\": \"opt-0\", \"backend\": \"vllm\","
                  + " \"workload_name\": \"opt\", \"role\": \"decode\"}")
          .contains("\"name\":\"jobs\",\"url\":\"" + server.url(jobs) + "\",\"job\":\"batch\"");
    }
  }

  @Test
  void printedConfigsGiveEveryTargetItsJobAndLabels() throws Exception {
    ReplayFleet fleet = fleet();
    List<InventoryFormats.Target> targets =
        ReplayServer.scrapeTargets(fleet, t -> "127.0.0.1:" + (9501 + fleet.targets().indexOf(t)));
    String yaml = InventoryFormats.prometheusYaml(targets, 5);
    assertThat(yaml)
        .contains(
            "  - job_name: inference\n    metrics_path: /metrics\n    static_configs:\n"
                + "      - targets: ['127.0.0.1:9501']\n        labels:\n"
                + "          namespace: \"replay\"\n          pod: \"opt-0\"\n"
                + "          backend: \"vllm\"\n          workload_name: \"opt\"\n"
                + "          role: \"decode\"\n")
        .contains(
            "  - job_name: dcgm\n    metrics_path: /metrics\n    static_configs:\n"
                + "      - targets: ['127.0.0.1:9502']\n        labels:\n"
                + "          namespace: \"replay\"\n"
                + "          pod: \"upcloud-l40s-single-gpu-no-pod\"\n"
                + "          backend: \"dcgm\"\n")
        .contains("  - job_name: batch\n");
    assertThat(InventoryFormats.fileSd(targets))
        .contains("{\"targets\": [\"127.0.0.1:9503\"], \"labels\": {\"namespace\": \"replay\"");
  }
}
