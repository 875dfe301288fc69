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
 * sglang.yaml's not_on_roles): with the view filtered to the prefill role, the TTFT panels say so,
 * not that the page was cut.
 */
class SglangPrefillTtftTest {
  private static final Catalog CATALOG = Catalog.builtIn();

  @ParameterizedTest
  @CsvSource({"pod.ttft", "model.ttft"})
  void aPrefillServerNeverObservesTtft(String id) {
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
    assertThat(sglang)
        .allSatisfy(
            m ->
                assertThat(m)
                    .contains("is never written on a SGLang prefill server")
                    .doesNotContain("cut, or names dropped"));
  }
}
