package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.PageChecker.Sample;
import dev.infermon.simulator.router.LlmdEpp;
import dev.infermon.simulator.router.SmgRouter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * SGLang's model gateway in front of the SGLang prefill/decode pair ({@code --router smg} with the
 * pairs): its PD router (lightseekorg/smg routers/http/pd_router.rs @ 73da68ca) sends each request
 * to both legs at once, counts it once with {@code backend_type="pd"}, records a worker selection
 * for each leg, and on success times the decode response's head ({@code smg_pd_ttft_seconds}), the
 * prefill leg and the response it hands back.
 */
class SmgPrefillDecodeTest {
  private static final long T0 = 1_790_000_000_000L;
  private static final String ROUTER = "smg-router-0";

  private static Fleet fleet() {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(1)
                .sglangGatewayPods(0)
                .prefillDecode(true)
                .router(RouterKind.SMG)
                .build(),
            T0);
    fleet.advance(Duration.ofMinutes(10));
    return fleet;
  }

  private static InferencePod pd(Fleet fleet, String role) {
    return fleet.pods().stream()
        .filter(p -> p instanceof SglangPod && p.info().role().equals(role))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void eachRequestIsRoutedOnceAndSelectsAWorkerForEachLeg() {
    Fleet fleet = fleet();
    Page page = PageChecker.strict(fleet.render(ROUTER).orElseThrow());
    InferencePod prefill = pd(fleet, "prefill");
    InferencePod decode = pd(fleet, "decode");
    String model = decode.info().model();
    double sent = LlmdEpp.sent(decode);
    assertThat(sent).isPositive();
    assertThat(page.value("smg_router_requests_total", "backend_type", "pd", "model", model))
        .isEqualTo(sent);
    Map<String, Double> selections = new TreeMap<>();
    for (Sample s : page.samples()) {
      if (s.name().equals("smg_worker_selection_total")) {
        assertThat(s.label("policy")).isEqualTo("cache_aware");
        assertThat(s.label("connection_mode")).isEqualTo("http");
        assertThat(s.label("model")).isEqualTo(model);
        selections.put(s.label("worker_type"), s.value());
      }
    }
    assertThat(selections)
        .isEqualTo(Map.of("prefill", (double) LlmdEpp.sent(prefill), "decode", sent));
    // both legs' load guards live until the decode stream ends (pd_router.rs line 625-628, 765):
    // each worker counts the decode side's requests in flight, not its own engine's
    int inFlight =
        decode.engines().stream()
            .mapToInt(e -> e.state().running() + e.state().waiting() + e.state().transferring())
            .sum();
    int prefilling =
        prefill.engines().stream()
            .mapToInt(e -> e.state().running() + e.state().waiting() + e.state().transferring())
            .sum();
    assertThat(inFlight).isGreaterThan(prefilling);
    for (InferencePod p : List.of(prefill, decode)) {
      assertThat(page.value("smg_worker_pool_size", "worker_type", p.info().role(), "model", model))
          .isEqualTo(1.0);
      assertThat(page.value("smg_worker_requests_active", "worker", SmgRouter.workerUrl(p)))
          .isEqualTo((double) inFlight);
    }
    // the regular SGLang pod is still the HTTP router's, which records no selection
    double regular =
        page.value("smg_router_requests_total", "backend_type", "regular", "model", model);
    assertThat(page.value("smg_http_requests_total", "path", "/v1/chat/completions"))
        .isEqualTo(regular + sent);
  }

  /**
   * The TTFT is the prefill leg's time plus the decode side's to its first token (the decode server
   * answers with its first chunk, which waits for the prefill's KV): its sum is the prefill side's
   * end-to-end sum plus the decode side's TTFT sum as the two engines' own pages give them, up to
   * the requests not yet finished on both sides; the prefill histogram is the prefill side's
   * end-to-end latency, and the PD duration (the response handed back) the TTFT.
   */
  @Test
  void theTtftIsThePrefillLegThenTheDecodeSidesFirstToken() {
    Fleet fleet = fleet();
    Page page = PageChecker.strict(fleet.render(ROUTER).orElseThrow());
    Page prefill = PageChecker.strict(fleet.render(pd(fleet, "prefill").info().name()).get());
    Page decode = PageChecker.strict(fleet.render(pd(fleet, "decode").info().name()).get());
    String model = pd(fleet, "decode").info().model();
    double expected =
        prefill.sum("sglang:e2e_request_latency_seconds_sum")
            + decode.sum("sglang:time_to_first_token_seconds_sum");
    String[] pdSeries = {"backend_type", "pd", "model", model, "runtime", "sglang"};
    double count = page.value("smg_pd_ttft_seconds_count", pdSeries);
    double ttft = page.value("smg_pd_ttft_seconds_sum", pdSeries);
    double ended = decode.sum("sglang:e2e_request_latency_seconds_count");
    assertThat(count).isPositive().isCloseTo(ended, within(0.05 * ended));
    assertThat(ttft).isCloseTo(expected, within(0.05 * expected));
    assertThat(page.value("smg_pd_prefill_duration_seconds_sum", pdSeries))
        .isCloseTo(prefill.sum("sglang:e2e_request_latency_seconds_sum"), within(0.05 * expected));

    List<Double> ttfts = fleet.gatewayPdTimes(model, T0, fleet.nowMillis() + 60_000, true);
    List<Double> durations = fleet.gatewayPdTimes(model, T0, fleet.nowMillis() + 60_000, false);
    assertThat(ttfts).hasSize((int) count);
    assertThat(ttft).isCloseTo(ttfts.stream().mapToDouble(d -> d).sum(), within(1e-6));
    assertThat(durations).isEqualTo(ttfts); // no simulated prefill side fails
    String h = "smg_router_request_duration_seconds";
    assertThat(page.value(h + "_count", "backend_type", "pd", "model", model))
        .isEqualTo((double) durations.size());
    long underOne = ttfts.stream().filter(d -> d <= 1.0).count();
    assertThat(page.value("smg_pd_ttft_seconds_bucket", "backend_type", "pd", "le", "1"))
        .isEqualTo((double) underOne);
    assertThat(page.family("smg_pd_ttft_seconds").buckets())
        .startsWith("0.001", "0.005")
        .endsWith("7200", "+Inf")
        .hasSize(30);
    // the gateway's latency family holds both routers' series
    assertThat(fleet.routerDurations(RouterKind.SMG, model, T0, fleet.nowMillis() + 60_000))
        .hasSize(
            (int)
                (page.value(h + "_count", "backend_type", "pd", "model", model)
                    + page.value(h + "_count", "backend_type", "regular", "model", model)));
  }

  @Test
  void theFamiliesAreWrittenAsTheRustExporterDoesAndOnlyInFrontOfAPair() {
    String text = fleet().render(ROUTER).orElseThrow();
    assertThat(text)
        .contains(
            "# HELP smg_pd_ttft_seconds Honest end-to-end TTFT (prefill start to first decode"
                + " token) by backend_type, model, runtime\n# TYPE smg_pd_ttft_seconds histogram\n")
        .contains("smg_pd_ttft_seconds_bucket{backend_type=\"pd\",model=\"")
        .contains("\",runtime=\"sglang\",le=\"0.001\"}")
        .contains(
            "smg_router_request_duration_seconds_count{router_type=\"http\",backend_type=\"pd\","
                + "connection_mode=\"http\",model=")
        .contains("smg_worker_selection_total{worker_type=\"decode\",connection_mode=\"http\",")
        .doesNotContain("_created")
        .doesNotContain("smg_pd_kv_transfer_duration_seconds"); // the gRPC vLLM path's only
    int selection = text.indexOf("# TYPE smg_worker_selection_total counter");
    assertThat(selection)
        .isGreaterThan(text.indexOf("# TYPE smg_router_requests_total counter"))
        .isLessThan(text.indexOf("# TYPE smg_worker_health gauge"));
    assertThat(text.indexOf("# TYPE smg_pd_prefill_duration_seconds histogram"))
        .isGreaterThan(text.indexOf("# TYPE smg_worker_requests_active gauge"))
        .isLessThan(text.indexOf("# TYPE smg_pd_ttft_seconds histogram"));

    Fleet plain =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(1)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .router(RouterKind.SMG)
                .build(),
            T0);
    plain.advance(Duration.ofMinutes(3));
    assertThat(plain.render(ROUTER).orElseThrow())
        .doesNotContain("smg_pd_")
        .doesNotContain("backend_type=\"pd\"")
        .doesNotContain("smg_worker_selection_total");
  }
}
