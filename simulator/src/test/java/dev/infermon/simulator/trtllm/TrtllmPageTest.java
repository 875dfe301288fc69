package dev.infermon.simulator.trtllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.TrtllmPod;
import dev.infermon.simulator.http.FleetServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulated trtllm-serve page is prometheus_client's multiprocess exposition, as trtllm-serve
 * mounts it (openai_server.py mount_metrics; #5785's sample page): no {@code _created} series,
 * labels sorted with {@code le} among them, a histogram's {@code _sum} before its buckets and
 * {@code _count}, Python float text, a {@code pid} on every gauge and on no counter; its values are
 * the server's counters, and it is served at {@code /prometheus/metrics} while {@code /metrics}
 * answers JSON.
 */
class TrtllmPageTest {
  private static Fleet fleet;
  private static TrtllmPod pod;

  @BeforeAll
  static void run() {
    fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .trtllmPods(1)
                .build(),
            1_780_000_000_000L);
    fleet.advance(Duration.ofMinutes(4));
    for (InferencePod p : fleet.pods()) {
      pod = (TrtllmPod) p;
    }
  }

  private static String page() {
    return fleet.render(pod.info().name()).orElseThrow();
  }

  @Test
  void layoutIsTheMultiprocessCollectors() {
    String page = page();
    assertThat(page).doesNotContain("_created");
    String model = pod.info().model();
    // the order #5785's sample shows: _sum, then the buckets with le sorted among the labels
    String sum =
        "trtllm_time_to_first_token_seconds_sum{engine_type=\"trtllm\",model_name=\""
            + model
            + "\"} ";
    String firstBucket =
        "trtllm_time_to_first_token_seconds_bucket{engine_type=\"trtllm\",le=\"0.001\",model_name=\""
            + model
            + "\"} ";
    String inf = "le=\"+Inf\",model_name=\"" + model + "\"} ";
    String count = "trtllm_time_to_first_token_seconds_count{engine_type=\"trtllm\",model_name=\"";
    int first = page.indexOf(firstBucket);
    assertThat(page.indexOf(sum)).isPositive().isLessThan(first);
    assertThat(page.indexOf(inf, first)).isPositive().isLessThan(page.indexOf(count, first));
    assertThat(page)
        .contains(
            "# HELP trtllm_request_success_total Count of successfully processed requests.\n"
                + "# TYPE trtllm_request_success_total counter\n")
        .contains("le=\"7680.0\"");
    for (String line : page.split("\n")) {
      if (line.startsWith("#")) {
        continue;
      }
      String name = line.substring(0, line.indexOf('{'));
      boolean gauge = page.contains("# TYPE " + name + " gauge\n");
      assertThat(line.contains(",pid=\"" + pod.pid() + "\"}")).as(line).isEqualTo(gauge);
      // Python's repr: integral values keep ".0"
      assertThat(line.substring(line.lastIndexOf(' ') + 1))
          .matches("-?[0-9]+\\.[0-9]+(e[-+][0-9]+)?");
    }
  }

  @Test
  void valuesAreTheServers() {
    TrtllmMetrics m = pod.metrics();
    assertThat(m.finished()).isPositive();
    assertThat(value("trtllm_prompt_tokens_total")).isEqualTo(m.promptTokens());
    assertThat(value("trtllm_generation_tokens_total")).isEqualTo(m.generationTokens());
    assertThat(value("trtllm_e2e_request_latency_seconds_count")).isEqualTo(m.e2e().count());
    double success = 0;
    for (double v : values("trtllm_request_success_total")) {
      success += v;
    }
    assertThat(success).isEqualTo(m.finished());
    assertThat(value("trtllm_kv_cache_max_blocks"))
        .isEqualTo(pod.engines().get(0).state().totalBlocks());
  }

  @Test
  void servedAtPrometheusMetrics() throws Exception {
    try (FleetServer server =
        FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, true))) {
      assertThat(server.metricsPath(pod.info())).isEqualTo("/prometheus/metrics");
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> prom =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url(pod.info()))).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(prom.statusCode()).isEqualTo(200);
      assertThat(prom.body()).contains("# TYPE trtllm_num_requests_running gauge");
      HttpResponse<String> json =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://" + server.hostPort(pod.info()) + "/metrics"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(json.body()).isEqualTo("[]");
      assertThat(json.headers().firstValue("Content-Type").orElse(""))
          .startsWith("application/json");
    }
    try (FleetServer shared =
        FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, false))) {
      String base = "http://127.0.0.1:" + shared.controlPort() + "/pods/" + pod.info().name();
      HttpClient http = HttpClient.newHttpClient();
      assertThat(
              http.send(
                      HttpRequest.newBuilder(URI.create(base + "/prometheus/metrics")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(200);
      assertThat(
              http.send(
                      HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(404);
    }
  }

  private static double value(String name) {
    List<Double> v = values(name);
    assertThat(v).as(name).hasSize(1);
    return v.get(0);
  }

  private static List<Double> values(String name) {
    List<Double> out = new ArrayList<>();
    Matcher m =
        Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*\\} (\\S+)$").matcher(page());
    while (m.find()) {
      out.add(Double.parseDouble(m.group(1)));
    }
    return out;
  }
}
