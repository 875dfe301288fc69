package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.FleetConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An SGLang PD prefill server never observes TTFT (its tokenizer manager skips it in prefill mode:
 * sglang.yaml's not_on_roles), nor inter-token latency (its requests end with their first token,
 * the baseline ITL is counted from): with the view filtered to the prefill role, the TTFT and
 * TPOT/ITL panels say so, not that the page was cut.
 */
class SglangPrefillTtftTest {
  private static final Catalog CATALOG = Catalog.builtIn();

  @ParameterizedTest
  @CsvSource({"pod.ttft", "model.ttft"})
  void aPrefillServerNeverObservesTtft(String id) {
    assertThat(sglangReasons(id))
        .allSatisfy(
            m ->
                assertThat(m)
                    .contains("is never written on a SGLang prefill server")
                    .doesNotContain("cut, or names dropped"));
  }

  @ParameterizedTest
  @CsvSource({"pod.tpot", "model.tpot"})
  void aPrefillServerNeverObservesInterTokenLatency(String id) {
    List<String> itl =
        sglangReasons(id).stream().filter(m -> m.contains("inter_token_latency")).toList();
    assertThat(itl)
        .isNotEmpty()
        .allSatisfy(
            m ->
                assertThat(m)
                    .contains("is never written on a SGLang prefill server")
                    .doesNotContain("the page lacks it"));
  }

  /** The SGLang reasons of panel {@code id}, empty on the pair's prefill servers. */
  private static List<String> sglangReasons(String id) {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(true)
            .models(List.of("meta-llama/Llama-3.1-8B-Instruct"))
            .build();
    SimulatedFleet fleet = new SimulatedFleet(config, false);
    fleet.run(Duration.ofMinutes(3));
    DashboardService s = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
    Filters prefill = Filters.of(Map.of("backend", "sglang-pd", "role", "prefill"));
    PanelResult r =
        s.render(DashboardRequest.of(prefill, fleet.now() - 300_000, fleet.now())).stream()
            .filter(p -> p.panel().id().equals(id))
            .findFirst()
            .orElseThrow();
    assertThat(r.status()).isEqualTo(PanelResult.Status.EMPTY);
    List<String> sglang =
        r.reasons().stream()
            .filter(e -> "sglang".equals(e.engine()))
            .map(EmptyReason::message)
            .toList();
    assertThat(sglang).isNotEmpty();
    return sglang;
  }
}
