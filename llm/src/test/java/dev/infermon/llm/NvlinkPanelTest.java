package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Level;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.signals.Signal;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The NVLink panel reads the default CSV's all-lane counter per pod and GPU: the simulated
 * tensor-parallel SGLang pod moves bytes over it, the one-GPU vLLM pod reads 0.
 */
class NvlinkPanelTest {
  @Test
  void tensorParallelPodsShowNvlinkTrafficAndOneGpuPodsZero() {
    Catalog catalog = Catalog.builtIn();
    SimulatedFleet f =
        new SimulatedFleet(
            FleetConfig.builder()
                .vllmPods(1)
                .dataParallelPods(0)
                .legacyVllmPods(0)
                .sglangPods(1)
                .sglangTensorParallel(2)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .models(List.of("org/model-a"))
                .build(),
            true);
    f.run(Duration.ofMinutes(6));
    DashboardService service = new DashboardService(QueryStack.of(f.backend), catalog);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE, Map.of(), 0.95, "5m", Presence.of(service.inventory(f.now()).families()));
    String q =
        new PromqlCompiler(catalog)
            .compile(new Measure.Gpu(Signal.GPU_NVLINK), Level.GPU, o)
            .orElseThrow();
    Vector v = (Vector) f.backend.instantQuery(q, f.now()).value();
    Map<String, List<Double>> byPod = new HashMap<>();
    v.samples()
        .forEach(
            s ->
                byPod
                    .computeIfAbsent(s.labels().get("pod"), k -> new java.util.ArrayList<>())
                    .add(s.value()));
    for (PodInfo p : f.fleet.inventory()) {
      if (p.backend() == Backend.SGLANG) {
        assertThat(byPod.get(p.name())).as(p.name()).hasSize(2).allMatch(b -> b > 1e6);
      } else if (p.backend() == Backend.VLLM) {
        assertThat(byPod.get(p.name())).as(p.name()).containsExactly(0.0);
      }
    }
    PanelResult panel =
        service.render(DashboardRequest.of(Filters.NONE, f.now() - 300_000, f.now())).stream()
            .filter(r -> r.panel().id().equals("gpu.nvlink_traffic"))
            .findFirst()
            .orElseThrow();
    assertThat(panel.status()).isEqualTo(PanelResult.Status.OK);
  }
}
