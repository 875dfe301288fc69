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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Triton's TensorRT-LLM backend gives its KV cache's size in blocks ({@code
 * nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="max"}}) and the tokens one block holds
 * ({@code tokens_per}), never in tokens (triton.yaml, reporter @ 27e4bfbd and @ 0d5352f5): the
 * capacity panels read the blocks, and the reason for the empty tokens query says what Triton
 * exposes instead of only that it lacks the signal.
 */
class TritonKvCapacityTest {
  private static List<PanelResult> panels;

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .tritonPods(1)
            .build();
    SimulatedFleet fleet = new SimulatedFleet(config, true);
    fleet.run(Duration.ofMinutes(3), snap -> {});
    DashboardService service =
        new DashboardService(QueryStack.of(fleet.backend), Catalog.builtIn());
    panels = service.render(DashboardRequest.of(Filters.NONE, fleet.now() - 120_000, fleet.now()));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"model.kv_capacity", "pod.kv_capacity"})
  void theTokensReasonSaysTritonGivesBlocksAndTokensPerBlock(String id) {
    PanelResult p =
        panels.stream().filter(x -> x.panel().id().equals(id)).findFirst().orElseThrow();
    List<EmptyReason> triton =
        p.reasons().stream().filter(r -> r.engine().equals("triton")).toList();
    assertThat(triton).as("%s", p.reasons()).hasSize(1);
    assertThat(triton.get(0).kind()).isEqualTo(EmptyReason.Kind.NOT_EXPOSED);
    assertThat(triton.get(0).message())
        .isEqualTo(
            "Triton (TensorRT-LLM backend) does not expose KV-cache size in tokens in any release:"
                + " it exposes the size in blocks"
                + " (nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=\"max\"}) and the tokens"
                + " one block holds (kv_cache_block_type=\"tokens_per\"); their product is the size"
                + " in tokens");
    assertThat(p.queries().stream().map(PanelResult.QueryData::promql).toList().toString())
        .contains("nv_trt_llm_kv_cache_block_metrics")
        .contains("kv_cache_block_type=~\"max\"");
  }
}
