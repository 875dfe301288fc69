package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.simulator.FleetConfig;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A fleet whose SGLang pods are all behind the gateway ({@code sglang_} names): the dashboard reads
 * them, and every reason that names an SGLang family names it as these targets expose it.
 */
class GatewaySpellingTest {
  private static final Map<String, PanelResult> panels = new HashMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(0)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(2)
            .prefillDecode(false)
            .models(List.of("meta-llama/Llama-3.1-8B-Instruct"))
            .build();
    SimulatedFleet f = new SimulatedFleet(config, false).run(Duration.ofMinutes(8));
    DashboardService s = new DashboardService(f.backend, Catalog.builtIn());
    for (PanelResult p : s.render(DashboardRequest.of(Filters.NONE, f.now() - 120_000, f.now()))) {
      panels.put(p.panel().id(), p);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"model.qps", "model.ttft", "model.e2e", "pod.kv_usage", "pod.scheduler"})
  void panelsHaveDataBehindTheGateway(String id) {
    PanelResult p = panels.get(id);
    assertThat(p.status()).as(id + " " + p.reasons()).isNotEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.queries().stream().map(PanelResult.QueryData::promql).toList().toString())
        .contains("sglang_")
        .doesNotContain("sglang:");
  }

  @Test
  void reasonsNameFamiliesInTheTargetsSpelling() {
    int named = 0;
    for (PanelResult p : panels.values()) {
      for (EmptyReason r : p.reasons()) {
        if (!r.engine().equals("sglang")) {
          continue;
        }
        assertThat(r.message()).as(p.panel().id()).doesNotContain("sglang:");
        if (r.message().contains("sglang_")) {
          named++;
        }
      }
    }
    // some reason names a family (a lazy one, a flag's): otherwise the assertion above is idle
    assertThat(named).isPositive();
  }
}
