package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Page;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The production-stack router's per-request families (request.py process_request @ a6c01db0):
 * {@code vllm:request_latency_seconds} times every request the router forwarded, the #813 token
 * counters add up the usage of the completed ones, and the page lays them out as prometheus_client
 * does.
 */
class ProductionStackLatencyTest {
  private static final long T0 = 1_790_000_000_000L;
  private static final String LATENCY = "vllm:request_latency_seconds";

  private static Fleet fleet() {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(3)
                .legacyVllmPods(0)
                .sglangPods(1)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .router(RouterKind.PRODUCTION_STACK)
                .build(),
            T0);
    fleet.advance(Duration.ofMinutes(10));
    return fleet;
  }

  private static Page routerPage(Fleet fleet) {
    return PageChecker.strict(fleet.render("production-stack-router-0").orElseThrow());
  }

  @Test
  void latencyCountsEveryRequestEachEngineFinishedWithItsStatus() {
    Fleet fleet = fleet();
    Page router = routerPage(fleet);
    int vllm = 0;
    for (InferencePod p : fleet.pods()) {
      if (!(p instanceof VllmPod)) {
        continue;
      }
      vllm++;
      String server = "http://" + p.info().name() + ":8000";
      Page engine = PageChecker.strict(fleet.render(p.info().name()).orElseThrow());
      double finished = engine.sum("vllm:request_success_total");
      assertThat(finished).as(server).isPositive();
      assertThat(router.sum(LATENCY + "_count", "server", server)).isEqualTo(finished);
      assertThat(router.sum(LATENCY + "_count", "server", server, "status", "error"))
          .isEqualTo(engine.sum("vllm:request_success_total", "finished_reason", "error"));
      // only completed requests have usage; every one of them ran its whole prompt
      double completed =
          engine.sum("vllm:request_success_total", "finished_reason", "stop")
              + engine.sum("vllm:request_success_total", "finished_reason", "length");
      double input = router.value("vllm:input_tokens_total", "server", server);
      assertThat(input)
          .isPositive()
          .isLessThanOrEqualTo(engine.sum("vllm:request_prompt_tokens_sum"));
      assertThat(router.value("vllm:output_tokens_total", "server", server))
          .isGreaterThanOrEqualTo(completed)
          .isLessThanOrEqualTo(engine.sum("vllm:request_generation_tokens_sum"));
    }
    assertThat(vllm).isEqualTo(3);
  }

  @Test
  void latencyIsWhatTheRoutedRequestsTookPlusTheRoutersOwnTime() {
    Fleet fleet = fleet();
    Page router = routerPage(fleet);
    for (String model : List.copyOf(FleetConfig.defaults().models())) {
      // an engine's last iteration may end just past the instant the fleet advanced to
      List<Double> truth =
          fleet.routerDurations(RouterKind.PRODUCTION_STACK, model, T0, fleet.nowMillis() + 60_000);
      assertThat(truth).as(model).isNotEmpty();
      assertThat(router.sum(LATENCY + "_count", "model", model)).isEqualTo(truth.size());
      double total = truth.stream().mapToDouble(Double::doubleValue).sum();
      assertThat(router.sum(LATENCY + "_sum", "model", model))
          .isCloseTo(total, org.assertj.core.api.Assertions.within(1e-6 * total));
      assertThat(truth).allSatisfy(d -> assertThat(d).isGreaterThan(0.002));
      long fast = truth.stream().filter(d -> d <= 1.0).count();
      assertThat(router.sum(LATENCY + "_bucket", "model", model, "le", "1.0")).isEqualTo(fast);
    }
  }

  @Test
  void requestStatsGaugesAreWhatRequestStatsPyGives() {
    Fleet fleet = fleet();
    Page router = routerPage(fleet);
    for (InferencePod p : fleet.pods()) {
      if (!(p instanceof VllmPod)) {
        continue;
      }
      String server = "http://" + p.info().name() + ":8000";
      // no code path updates the decoding length or the ITL monitors, nor reports a swap
      assertThat(router.value("vllm:avg_decoding_length", "server", server)).isEqualTo(-1);
      assertThat(router.value("vllm:avg_itl", "server", server)).isEqualTo(-1);
      assertThat(router.value("vllm:num_requests_swapped", "server", server)).isZero();
      // the mean latency of the last minute's completed requests: within what the router timed
      List<Double> timed =
          fleet.routerDurations(
              RouterKind.PRODUCTION_STACK,
              p.info().model(),
              fleet.nowMillis() - 120_000,
              fleet.nowMillis() + 60_000);
      assertThat(router.value("vllm:avg_latency", "server", server))
          .isBetween(
              timed.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
              timed.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
    }
    List<String> names = List.copyOf(router.families.keySet());
    // after prometheus_client's ten default families (python_gc_*, python_info, process_*)
    assertThat(names.subList(10, 21))
        .containsExactly(
            "vllm:num_requests_running",
            "vllm:num_requests_waiting",
            "vllm:current_qps",
            "vllm:avg_decoding_length",
            "vllm:num_prefill_requests",
            "vllm:num_decoding_requests",
            "vllm:num_incoming_requests_total",
            "vllm:num_incoming_requests_created",
            "vllm:healthy_pods_total",
            "vllm:avg_latency",
            "vllm:avg_itl");
  }

  @Test
  void familiesAreWrittenAsPrometheusClientWritesThem() {
    Fleet fleet = fleet();
    String text = fleet.render("production-stack-router-0").orElseThrow();
    Page page = PageChecker.strict(text);
    assertThat(page.family(LATENCY).type).isEqualTo("histogram");
    assertThat(page.family(LATENCY).buckets())
        .containsExactly(
            "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "30.0", "60.0", "120.0",
            "+Inf");
    assertThat(page.family(LATENCY).labelNames())
        .containsExactlyInAnyOrder("server", "model", "status");
    // labels sorted by name, le among them; counters named with _total once, _created beside
    assertThat(text)
        .containsPattern(
            "\nvllm:request_latency_seconds_bucket\\{le=\"0\\.05\",model=\"[^\"]+\","
                + "server=\"http://[^\"]+\",status=\"success\"} [0-9]+\\.0\n")
        .contains("# HELP vllm:input_tokens_total Total input tokens processed\n")
        .contains("# TYPE vllm:input_tokens_total counter\n")
        .contains("# TYPE vllm:input_tokens_created gauge\n")
        .contains("# TYPE vllm:output_tokens_created gauge\n")
        .contains("# TYPE vllm:request_latency_seconds_created gauge\n")
        .doesNotContain("_total_total")
        // declared with no child yet: HELP and TYPE only, and no _created family
        .contains(
            "# HELP vllm:request_errors_total Total request errors\n"
                + "# TYPE vllm:request_errors_total counter\n"
                + "# HELP vllm:request_latency_seconds End-to-end request latency observed at the"
                + " router\n")
        .doesNotContain("vllm:request_errors_created");
    // metrics_service/__init__.py's order: the #813 counters and #940's histogram last
    List<String> names = List.copyOf(page.families.keySet());
    assertThat(names.indexOf("vllm:healthy_pods_total"))
        .isLessThan(names.indexOf("vllm:input_tokens_total"));
    assertThat(names.indexOf("vllm:request_errors_total")).isLessThan(names.indexOf(LATENCY));
  }
}
