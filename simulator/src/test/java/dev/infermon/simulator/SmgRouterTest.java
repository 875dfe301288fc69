package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.router.LlmdEpp;
import dev.infermon.simulator.router.SmgRouter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SGLang's model gateway in front of the SGLang pods ({@code --router smg}): its page counts what
 * the pods were sent and times what they finished, in the metrics-exporter-prometheus format.
 */
class SmgRouterTest {
  private static final long T0 = 1_790_000_000_000L;

  private static Fleet fleet() {
    return Fleet.create(
        FleetConfig.builder()
            .vllmPods(1)
            .legacyVllmPods(0)
            .sglangPods(2)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .router(RouterKind.SMG)
            .build(),
        T0);
  }

  private static PodInfo router(Fleet fleet) {
    return fleet.inventory().get(fleet.inventory().size() - 1);
  }

  @Test
  void frontsTheSglangPodsCountingWhatEachWasSentAndHasInFlight() {
    Fleet fleet = fleet();
    assertThat(router(fleet).name()).isEqualTo("smg-router-0");
    assertThat(router(fleet).targetLabels()).containsEntry("backend", "smg");
    fleet.advance(Duration.ofMinutes(5));
    Page page = PageChecker.strict(fleet.render(router(fleet).name()).orElseThrow());
    java.util.Map<String, Long> sent = new java.util.TreeMap<>();
    java.util.Map<String, Integer> workers = new java.util.TreeMap<>();
    for (InferencePod p : fleet.pods()) {
      String url = SmgRouter.workerUrl(p);
      if (!(p instanceof SglangPod)) {
        assertThat(page.samples()).noneMatch(s -> url.equals(s.label("worker")));
        continue;
      }
      workers.merge(p.info().model(), 1, Integer::sum);
      sent.merge(p.info().model(), LlmdEpp.sent(p), Long::sum);
      int load =
          p.engines().stream()
              .mapToInt(e -> e.state().running() + e.state().waiting() + e.state().transferring())
              .sum();
      assertThat(page.value("smg_worker_requests_active", "worker", url)).isEqualTo((double) load);
      assertThat(page.value("smg_worker_health", "worker", url)).isEqualTo(1.0);
    }
    assertThat(workers.values().stream().mapToInt(i -> i).sum()).isEqualTo(2);
    for (String model : sent.keySet()) {
      assertThat(page.value("smg_router_requests_total", "model", model))
          .isEqualTo((double) sent.get(model))
          .isPositive();
      assertThat(page.value("smg_worker_pool_size", "model", model))
          .isEqualTo(workers.get(model).doubleValue());
    }
    assertThat(page.value("smg_http_requests_total", "path", "/v1/chat/completions"))
        .isEqualTo((double) sent.values().stream().mapToLong(l -> l).sum());
  }

  @Test
  void theDurationHistogramTimesTheRequestsThePodsFinished() {
    Fleet fleet = fleet();
    fleet.advance(Duration.ofMinutes(5));
    Page page = PageChecker.strict(fleet.render(router(fleet).name()).orElseThrow());
    String model =
        fleet.pods().stream().filter(p -> p instanceof SglangPod).findFirst().get().info().model();
    // an engine may finish a request a little past the fleet's clock within its last step
    List<Double> truth = fleet.gatewayDurations(model, T0, fleet.nowMillis() + 60_000);
    assertThat(truth).isNotEmpty();
    String h = "smg_router_request_duration_seconds";
    assertThat(page.value(h + "_count", "model", model)).isEqualTo((double) truth.size());
    assertThat(page.value(h + "_sum", "model", model))
        .isCloseTo(
            truth.stream().mapToDouble(d -> d).sum(), org.assertj.core.api.Assertions.within(1e-6));
    long underFive = truth.stream().filter(d -> d <= 5.0).count();
    assertThat(page.value(h + "_bucket", "model", model, "le", "5")).isEqualTo((double) underFive);
    assertThat(page.family(h).buckets())
        .startsWith("0.001", "0.005", "0.01")
        .endsWith("5400", "7200", "+Inf")
        .hasSize(30);
  }

  /**
   * router.rs records a streaming request's duration at the worker's response head (line 393),
   * which SGLang sends with the first token (serving_chat.py, #21900): the histogram's sum is the
   * SGLang pods' own TTFT sum, not their end-to-end one.
   */
  @Test
  void aStreamingRequestIsTimedToItsFirstTokenNotItsLastByte() {
    Fleet fleet = fleet();
    fleet.advance(Duration.ofMinutes(5));
    Page page = PageChecker.strict(fleet.render(router(fleet).name()).orElseThrow());
    double ttft = 0;
    double e2e = 0;
    for (InferencePod p : fleet.pods()) {
      if (p instanceof SglangPod) {
        Page pod = PageChecker.strict(fleet.render(p.info().name()).orElseThrow());
        ttft += pod.sum("sglang:time_to_first_token_seconds_sum");
        e2e += pod.sum("sglang:e2e_request_latency_seconds_sum");
      }
    }
    double timed = page.sum("smg_router_request_duration_seconds_sum");
    assertThat(e2e).isGreaterThan(3 * ttft);
    assertThat(timed).isCloseTo(ttft, org.assertj.core.api.Assertions.within(0.05 * ttft));
  }

  @Test
  void theTextIsTheRustExportersCountersGaugesHistogramsEachFamilyFollowedByAnEmptyLine() {
    Fleet fleet = fleet();
    fleet.advance(Duration.ofMinutes(2));
    String text = fleet.render(router(fleet).name()).orElseThrow();
    assertThat(text)
        .contains(
            "# HELP smg_worker_requests_active Currently running requests per worker\n"
                + "# TYPE smg_worker_requests_active gauge\n")
        .contains(
            "smg_router_requests_total{router_type=\"http\",backend_type=\"regular\","
                + "connection_mode=\"http\",model=")
        .doesNotContain("_created")
        .doesNotContain(".0 ")
        .doesNotContain(".0\"}")
        .endsWith("\n\n");
    int counter = text.indexOf("# TYPE smg_router_requests_total counter");
    int gauge = text.indexOf("# TYPE smg_worker_health gauge");
    int histogram = text.indexOf("# TYPE smg_router_request_duration_seconds histogram");
    assertThat(counter).isPositive().isLessThan(gauge);
    assertThat(gauge).isLessThan(histogram);
    assertThat(text.substring(0, text.indexOf("# HELP smg_worker_health"))).endsWith("\n\n");
  }

  @Test
  void aRestartedWorkerIsUnhealthyWithNothingInFlightAndTheCounterGoesOn() {
    Fleet fleet = fleet();
    fleet.advance(Duration.ofMinutes(3));
    SglangPod pod =
        (SglangPod) fleet.pods().stream().filter(p -> p instanceof SglangPod).findFirst().get();
    String model = pod.info().model();
    Page before = PageChecker.strict(fleet.render(router(fleet).name()).orElseThrow());
    fleet.setScenario(Scenario.POD_RESTART, pod.info().name());
    Page down = PageChecker.strict(fleet.render(router(fleet).name()).orElseThrow());
    String url = SmgRouter.workerUrl(pod);
    assertThat(down.value("smg_worker_health", "worker", url)).isZero();
    assertThat(down.value("smg_worker_requests_active", "worker", url)).isZero();
    fleet.advance(Duration.ofMinutes(3));
    Page after = PageChecker.strict(fleet.render(router(fleet).name()).orElseThrow());
    assertThat(after.value("smg_router_requests_total", "model", model))
        .isGreaterThan(before.value("smg_router_requests_total", "model", model));
  }
}
