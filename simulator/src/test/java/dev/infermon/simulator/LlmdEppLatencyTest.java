package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Page;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * llm-d's EPP times the requests it routed as response.go does (@ ebab6879): every request whose
 * stream ended, in {@code llm_d_epp_request_duration_seconds}, its deprecated twin and {@code
 * llm_d_epp_request_ttft_seconds}, written as client_golang writes them.
 */
class LlmdEppLatencyTest {
  private static final long T0 = 1_790_000_000_000L;

  private static Fleet fleet() {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(3)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .router(RouterKind.LLM_D)
                .build(),
            T0);
    fleet.advance(Duration.ofMinutes(10));
    return fleet;
  }

  @Test
  void everyRequestWhoseStreamEndedIsTimedOnceInEachHistogram() {
    Fleet fleet = fleet();
    Page epp = PageChecker.strict(fleet.render("llm-d-router-0").orElseThrow());
    int models = 0;
    for (InferencePod p : fleet.pods()) {
      String model = p.info().model();
      Page engine = PageChecker.strict(fleet.render(p.info().name()).orElseThrow());
      double ended =
          engine.sum("vllm:request_success_total")
              - engine.sum("vllm:request_success_total", "finished_reason", "abort");
      assertThat(ended).as(model).isPositive();
      for (String h :
          List.of(
              "llm_d_epp_request_duration_seconds",
              "inference_objective_request_duration_seconds",
              "llm_d_epp_request_ttft_seconds")) {
        assertThat(epp.sum(h + "_count", "model_name", model)).as(h).isEqualTo(ended);
      }
      List<Double> durations =
          fleet.routerDurations(RouterKind.LLM_D, model, T0, fleet.nowMillis() + 60_000);
      List<Double> ttfts = fleet.routerTtfts(model, T0, fleet.nowMillis() + 60_000);
      assertThat(durations).hasSize((int) ended);
      assertThat(ttfts).hasSize((int) ended);
      for (int i = 0; i < ttfts.size(); i++) {
        assertThat(ttfts.get(i)).isPositive().isLessThanOrEqualTo(durations.get(i));
      }
      assertThat(epp.sum("llm_d_epp_request_ttft_seconds_bucket", "model_name", model, "le", "1"))
          .isEqualTo(ttfts.stream().filter(d -> d <= 1.0).count());
      models++;
    }
    assertThat(models).isEqualTo(3);
  }

  @Test
  void histogramsAreWrittenAsClientGolangWritesThem() {
    Fleet fleet = fleet();
    String text = fleet.render("llm-d-router-0").orElseThrow();
    Page page = PageChecker.strict(text);
    assertThat(page.family("llm_d_epp_request_duration_seconds").buckets())
        .startsWith("0.005", "0.025", "0.05", "0.1", "0.2")
        .contains("1", "1.25", "2", "3600")
        .endsWith("2700", "3600", "+Inf")
        .hasSize(36);
    assertThat(page.family("llm_d_epp_request_ttft_seconds").buckets())
        .hasSize(25)
        .endsWith("120", "+Inf");
    assertThat(page.family("llm_d_epp_request_ttft_seconds").labelNames())
        .containsExactly("fairness_id", "model_name", "priority", "streaming", "target_model_name");
    assertThat(page.family("inference_objective_request_duration_seconds").labelNames())
        .containsExactly("model_name", "target_model_name");
    assertThat(text)
        .containsPattern(
            "\nllm_d_epp_request_ttft_seconds_bucket\\{fairness_id=\"\",le=\"0\\.005\",model_name=\"[^\"]+\","
                + "priority=\"\",streaming=\"true\",target_model_name=\"[^\"]+\"} [0-9]+\n")
        .containsPattern(
            "\ninference_objective_request_duration_seconds_bucket\\{le=\"\\+Inf\",model_name=")
        .doesNotContain("inference_objective_request_ttft_seconds");
    // client_golang gathers families sorted by name
    List<String> names = List.copyOf(page.families.keySet());
    assertThat(names).isSorted();
  }
}
