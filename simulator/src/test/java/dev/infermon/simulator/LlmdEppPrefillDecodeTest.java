package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.PageChecker.Sample;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * llm-d's EPP in front of the prefill/decode pairs: a P/D request is one scheduling attempt on the
 * decode pod (the P/D profile handler's primary profile, llm-d-router @ ebab6879), and it is timed
 * once, as the user saw it through the decode pod's sidecar: the prefill side's time, then the
 * decode side's (connector_nixlv2.go chains the two legs).
 */
class LlmdEppPrefillDecodeTest {
  private static final long T0 = 1_790_000_000_000L;

  private static Fleet fleet(RouterKind router) {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(true)
                .router(router)
                .build(),
            T0);
    fleet.advance(Duration.ofMinutes(10));
    return fleet;
  }

  @Test
  void aPrefillDecodeRequestIsOneAttemptOnTheDecodePod() {
    Fleet fleet = fleet(RouterKind.LLM_D);
    Page epp = PageChecker.strict(fleet.render("llm-d-router-0").orElseThrow());
    Map<String, Double> attempts = new TreeMap<>();
    Map<String, Double> queues = new TreeMap<>();
    for (Sample s : epp.samples()) {
      if (s.name().equals("llm_d_epp_scheduler_attempts_total")) {
        attempts.put(s.label("endpoint_name"), s.value());
      } else if (s.name().equals("llm_d_epp_per_endpoint_queue_size")) {
        queues.put(s.label("model_server_endpoint"), s.value());
      }
    }
    Map<String, Double> sent = new TreeMap<>();
    for (InferencePod p : fleet.pods()) {
      if (p.info().role().equals("decode")) {
        sent.put(p.info().name(), (double) dev.infermon.simulator.router.LlmdEpp.sent(p));
      }
    }
    assertThat(sent).hasSize(2);
    assertThat(attempts).isEqualTo(sent);
    assertThat(queues).hasSize(4);
  }

  /**
   * Each P/D request the EPP timed took the prefill side's end-to-end time plus the decode side's:
   * the duration histogram's sum is the four engines' own e2e sums (and the EPP's 2 ms each), and
   * the TTFT histogram's the prefill sides' e2e plus the decode sides' TTFT, up to the requests a
   * client abandoned or still in flight, which the EPP has not timed.
   */
  @Test
  void thePairsRequestsAreTimedAsTheSidecarChainsTheirTwoLegs() {
    Fleet fleet = fleet(RouterKind.LLM_D);
    Page epp = PageChecker.strict(fleet.render("llm-d-router-0").orElseThrow());
    String model = fleet.pods().get(0).info().model();
    double engines = 0;
    double firstBytes = 0;
    double decodeEnded = 0;
    for (InferencePod p : fleet.pods()) {
      assertThat(p.info().model()).isEqualTo(model);
      Page page = PageChecker.strict(fleet.render(p.info().name()).orElseThrow());
      String prefix = p instanceof VllmPod ? "vllm:" : "sglang:";
      engines += page.sum(prefix + "e2e_request_latency_seconds_sum");
      if (p.info().role().equals("decode")) {
        decodeEnded += page.sum(prefix + "e2e_request_latency_seconds_count");
        firstBytes += page.sum(prefix + "time_to_first_token_seconds_sum");
      } else {
        firstBytes += page.sum(prefix + "e2e_request_latency_seconds_sum");
      }
    }
    double count = epp.sum("llm_d_epp_request_duration_seconds_count", "model_name", model);
    double timed = epp.sum("llm_d_epp_request_duration_seconds_sum", "model_name", model);
    assertThat(count).isPositive().isCloseTo(decodeEnded, within(0.05 * decodeEnded));
    // the prefill legs are about 2 % of the durations: the bound must be tighter than that
    assertThat(timed - 0.002 * count).isCloseTo(engines, within(0.005 * engines));
    double ttft = epp.sum("llm_d_epp_request_ttft_seconds_sum", "model_name", model);
    // the first byte: the prefill leg, then the decode side's KV transfer and first step
    assertThat(ttft - 0.002 * count).isCloseTo(firstBytes, within(0.02 * firstBytes));
    List<Double> ttfts = fleet.routerTtfts(model, T0, fleet.nowMillis() + 60_000);
    List<Double> durations =
        fleet.routerDurations(RouterKind.LLM_D, model, T0, fleet.nowMillis() + 60_000);
    assertThat(ttfts).hasSize((int) count);
    for (int i = 0; i < ttfts.size(); i++) {
      assertThat(ttfts.get(i)).isPositive().isLessThanOrEqualTo(durations.get(i));
    }
  }

  @Test
  void noOtherRouterFrontsThePairs() {
    Fleet fleet = fleet(RouterKind.PRODUCTION_STACK);
    assertThat(fleet.routerDurations(RouterKind.PRODUCTION_STACK, "any", T0, fleet.nowMillis()))
        .isEmpty();
    for (InferencePod p : fleet.pods()) {
      // SGLang's pair has its gateway's PD router in front when listed (SmgPrefillDecodeTest)
      RouterKind gateway = p instanceof SglangPod ? RouterKind.SMG : RouterKind.NONE;
      assertThat(RouterTarget.frontOf(List.of(RouterKind.PRODUCTION_STACK, RouterKind.SMG), p))
          .isEqualTo(gateway);
      assertThat(RouterTarget.frontOf(List.of(RouterKind.SMG, RouterKind.LLM_D), p))
          .isEqualTo(gateway == RouterKind.SMG ? RouterKind.SMG : RouterKind.LLM_D);
      assertThat(RouterTarget.frontOf(List.of(RouterKind.PRODUCTION_STACK), p))
          .isEqualTo(RouterKind.NONE);
    }
  }

  /**
   * Each P/D request is one disaggregation decision of the disagg-profile-handler, "prefill-decode"
   * (every simulated request runs its prefill side), in the current family with the handler's name
   * and type and in its twin; the deprecated pd-profile-handler's pd_decision_total is not written,
   * and an EPP fronting no pair writes no decision family at all.
   */
  @Test
  void eachPrefillDecodeRequestIsOneDisaggregationDecision() {
    Fleet fleet = fleet(RouterKind.LLM_D);
    String text = fleet.render("llm-d-router-0").orElseThrow();
    Page epp = PageChecker.strict(text);
    Map<String, Double> sentByModel = new TreeMap<>();
    for (InferencePod p : fleet.pods()) {
      if (p.info().role().equals("decode")) {
        sentByModel.merge(
            p.info().model(), (double) dev.infermon.simulator.router.LlmdEpp.sent(p), Double::sum);
      }
    }
    assertThat(sentByModel.values()).allMatch(v -> v > 0);
    Map<String, Double> current = new TreeMap<>();
    Map<String, Double> twin = new TreeMap<>();
    for (Sample s : epp.samples()) {
      if (s.name().equals("llm_d_epp_disagg_decision_total")) {
        assertThat(s.label("decision_type")).isEqualTo("prefill-decode");
        assertThat(s.label("plugin_name")).isEqualTo("disagg-profile-handler");
        assertThat(s.label("plugin_type")).isEqualTo("disagg-profile-handler");
        current.put(s.label("model_name"), s.value());
      } else if (s.name().equals("llm_d_inference_scheduler_disagg_decision_total")) {
        assertThat(s.label("decision_type")).isEqualTo("prefill-decode");
        twin.put(s.label("model_name"), s.value());
      }
    }
    assertThat(current).isEqualTo(sentByModel);
    assertThat(twin).isEqualTo(sentByModel);
    assertThat(text)
        .contains(
            "# HELP llm_d_epp_disagg_decision_total [ALPHA] Total number of disaggregation routing"
                + " decisions made\n")
        .doesNotContain("pd_decision_total");
    // client_golang's order: by name, so the current family before the per-endpoint queue and the
    // twin after every llm_d_epp_ one
    assertThat(text.indexOf("# TYPE llm_d_epp_disagg_decision_total"))
        .isLessThan(text.indexOf("# TYPE llm_d_epp_per_endpoint_queue_size"));
    assertThat(text.indexOf("# TYPE llm_d_inference_scheduler_disagg_decision_total"))
        .isGreaterThan(text.indexOf("# TYPE llm_d_epp_scheduler_attempts_total"));

    Fleet plain =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(1)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .router(RouterKind.LLM_D)
                .build(),
            T0);
    plain.advance(Duration.ofMinutes(3));
    assertThat(plain.render("llm-d-router-0").orElseThrow()).doesNotContain("decision_total");
  }
}
