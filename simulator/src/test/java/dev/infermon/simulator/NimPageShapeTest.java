package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.vllm.VllmMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The simulated NVIDIA NIM page has the real page's shape (capture {@code
 * nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt}) line by line: the same families in the same
 * order with the same HELP and TYPE lines, the same samples with the same label keys in the same
 * order ({@code le} before {@code model_name}), the same {@code le} bounds, {@code _bucket} then
 * {@code _count} then {@code _sum}, no {@code _created}, prometheus_client's float notation for the
 * process gauges ({@code 1.15891634176e+011}), and no newline after the last sample; and its
 * counters agree with each other at every scrape as the catalog reads NIM's: request_finish_total
 * counts the stop and length finishes, request_success_total the same requests, and
 * request_failure_total the failed ones beside them (finished = finish + failure).
 */
class NimPageShapeTest {
  static final long START = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
  static final String CAPTURE = "nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt";
  private static final Pattern SAMPLE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{.*\\})? (\\S+)");
  private static final Pattern PAIR = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"([^\"]*)\"");

  /** Labels whose values differ by design: the served model, which finish reasons occurred. */
  private static final Set<String> FREE_VALUES = Set.of("model_name", "finished_reason");

  static Fleet nimFleet(Scenario scenario) {
    FleetConfig c =
        FleetConfig.builder()
            .vllmPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .nimPods(1)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .scenario(scenario)
            .build();
    return Fleet.create(c, START);
  }

  static String page(Fleet fleet) {
    return fleet.render(fleet.inventory().get(0).name()).orElseThrow();
  }

  /**
   * A line's structure: comments whole, a sample as its name, label keys in order with the values
   * of the labels that are the page's own ({@code le}, {@code generation}, python_info's), and the
   * notation of its value where prometheus_client switches to an exponent.
   */
  static List<String> skeleton(String page) {
    List<String> out = new ArrayList<>();
    for (String line : page.split("\n", -1)) {
      if (line.startsWith("#")) {
        out.add(line);
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      assertThat(m.matches()).as(line).isTrue();
      StringBuilder sb = new StringBuilder(m.group(1)).append('{');
      if (m.group(2) != null) {
        Matcher p = PAIR.matcher(m.group(2));
        while (p.find()) {
          sb.append(p.group(1));
          if (!FREE_VALUES.contains(p.group(1))) {
            sb.append('=').append(p.group(2));
          }
          sb.append(',');
        }
      }
      sb.append("} ").append(notation(m.group(3)));
      String s = sb.toString();
      // which finish reasons a page has depends on what its requests did: one line per kind
      if (!(s.startsWith("request_finish_total{") && out.contains(s))) {
        out.add(s);
      }
    }
    return out;
  }

  /** {@code e+0NN} for prometheus_client's exponent of a large value, else {@code float}. */
  private static String notation(String v) {
    Matcher e = Pattern.compile("[0-9]\\.[0-9]+(e\\+0[0-9]+)").matcher(v);
    if (e.matches()) {
      return e.group(1);
    }
    assertThat(v).as("a Python float").matches("-?[0-9]+\\.[0-9]+(e-[0-9]+)?");
    return "float";
  }

  @Test
  void linesHaveTheCapturesStructure() {
    String real = Fixtures.capture(CAPTURE);
    Fleet fleet = nimFleet(Scenario.HEALTHY);
    fleet.advance(Duration.ofMinutes(10));
    String sim = page(fleet);
    List<String> want = skeleton(real);
    List<String> got = skeleton(sim);
    // the process start is 2024's in the capture (e+09 both), the values of the others the same
    for (int i = 0; i < Math.max(want.size(), got.size()); i++) {
      String w = i < want.size() ? want.get(i) : "<none>";
      String g = i < got.size() ? got.get(i) : "<none>";
      assertThat(g).as("line " + (i + 1)).isEqualTo(w);
    }
    assertThat(sim).contains("process_virtual_memory_bytes 1.15891634176e+011\n");
  }

  @Test
  void theFamiliesAreTheCapturesAndNoSeriesIsCreated() {
    Page real = PageChecker.strict(Fixtures.capture(CAPTURE) + "\n");
    Fleet fleet = nimFleet(Scenario.ERROR_SPIKE);
    fleet.advance(Duration.ofMinutes(10));
    Page sim = PageChecker.strict(page(fleet) + "\n");
    assertThat(List.copyOf(sim.families.keySet())).isEqualTo(List.copyOf(real.families.keySet()));
    for (PageChecker.Family r : real.families.values()) {
      PageChecker.Family s = sim.family(r.name);
      assertThat(s.help).as(r.name).isEqualTo(r.help);
      assertThat(s.type).as(r.name).isEqualTo(r.type);
      assertThat(s.labelNames()).as(r.name).isEqualTo(r.labelNames());
      if (r.type.equals("histogram")) {
        assertThat(s.buckets()).as(r.name).isEqualTo(r.buckets());
      }
    }
    assertThat(page(fleet)).doesNotContain("_created").doesNotContain("vllm:");
  }

  @Test
  void thePageEndsWithItsLastSampleAsTheCaptureDoes() {
    String real = Fixtures.capture(CAPTURE);
    assertThat(real)
        .doesNotEndWith("\n")
        .endsWith("request_failure_total{model_name=\"meta/llama-3.1-8b-instruct\"} 0.0");
    Fleet fleet = nimFleet(Scenario.HEALTHY);
    fleet.advance(Duration.ofMinutes(1));
    assertThat(page(fleet))
        .doesNotEndWith("\n")
        .matches("(?s).*\nrequest_failure_total\\{model_name=\"[^\"]+\"\\} [0-9.]+");
  }

  @Test
  void countsAgreeAtEveryScrape() {
    Fleet fleet = nimFleet(Scenario.ERROR_SPIKE);
    NimPod pod = (NimPod) fleet.pods().get(0);
    double[] before = new double[6];
    for (int step = 0; step < 40; step++) {
      fleet.advance(Duration.ofSeconds(15));
      Page p = PageChecker.strict(page(fleet) + "\n"); // checks buckets cumulative, _count = +Inf
      VllmMetrics m = pod.metrics();
      double finish = p.sum("request_finish_total");
      double success = p.value("request_success_total");
      double failure = p.value("request_failure_total");
      assertThat(finish).as("step " + step).isEqualTo(success);
      assertThat(success).isEqualTo(m.finished("stop") + m.finished("length"));
      assertThat(failure).isEqualTo(m.finished("abort") + m.finished("error"));
      assertThat(p.sum("request_finish_total", "finished_reason", "stop"))
          .isEqualTo(m.finished("stop"));
      assertThat(p.sum("request_finish_total", "finished_reason", "length"))
          .isEqualTo(m.finished("length"));
      assertThat(p.samples().stream().filter(x -> x.name().equals("request_finish_total")))
          .allMatch(x -> Set.of("stop", "length").contains(x.label("finished_reason")));
      assertThat(p.value("prompt_tokens_total")).isEqualTo(m.promptTokens());
      assertThat(p.value("generation_tokens_total")).isEqualTo(m.generationTokens());
      assertThat(p.value("prompt_tokens_total"))
          .isGreaterThanOrEqualTo(p.value("request_prompt_tokens_sum"));
      assertThat(p.value("generation_tokens_total"))
          .isGreaterThanOrEqualTo(p.value("request_generation_tokens_sum"));
      assertThat(p.value("e2e_request_latency_seconds_count"))
          .isEqualTo(p.value("request_prompt_tokens_count"))
          .isEqualTo(p.value("request_generation_tokens_count"))
          .isLessThanOrEqualTo(finish + failure);
      assertThat(p.value("num_requests_running"))
          .isEqualTo(pod.engines().get(0).state().running())
          .isLessThanOrEqualTo(p.value("num_request_max"));
      assertThat(p.value("num_request_max")).isEqualTo(ModelProfile.LLAMA_8B.params().maxNumSeqs());
      double[] now = {
        finish,
        success,
        failure,
        p.value("prompt_tokens_total"),
        p.value("time_to_first_token_seconds_count"),
        p.value("time_per_output_token_seconds_count")
      };
      for (int i = 0; i < now.length; i++) {
        assertThat(now[i])
            .as("counter " + i + " at step " + step)
            .isGreaterThanOrEqualTo(before[i]);
      }
      before = now;
    }
    assertThat(before[1]).as("requests succeeded").isPositive();
    assertThat(before[2]).as("the error spike fails requests").isPositive();
  }

  @Test
  void aMisSetMaxNumSeqsIsTheCapRunningReaches() {
    Fleet fleet = nimFleet(Scenario.IDLE_GPU_LONG_QUEUE);
    fleet.advance(Duration.ofMinutes(2));
    Page p = PageChecker.strict(page(fleet) + "\n");
    assertThat(p.value("num_request_max")).isEqualTo(2);
    assertThat(p.value("num_requests_running")).isLessThanOrEqualTo(2);
  }

  @Test
  void servedAtV1Metrics() throws Exception {
    Fleet fleet = nimFleet(Scenario.HEALTHY);
    fleet.advance(Duration.ofMinutes(1));
    PodInfo pod = fleet.inventory().get(0);
    HttpClient http = HttpClient.newHttpClient();
    try (FleetServer server =
        FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, true))) {
      assertThat(server.metricsPath(pod)).isEqualTo("/v1/metrics");
      HttpResponse<String> page =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url(pod))).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("# TYPE num_request_max gauge");
    }
    try (FleetServer shared =
        FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, false))) {
      String base = "http://127.0.0.1:" + shared.controlPort() + "/pods/" + pod.name();
      assertThat(shared.metricsPath(pod)).isEqualTo("/pods/" + pod.name() + "/v1/metrics");
      assertThat(
              http.send(
                      HttpRequest.newBuilder(URI.create(base + "/v1/metrics")).build(),
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
}
