package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Level;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.efficiency.Efficiency;
import dev.infermon.llm.efficiency.EfficiencyRequest;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.efficiency.Figures;
import dev.infermon.llm.efficiency.Group;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.amdgpu.AmdExporter;
import dev.infermon.simulator.amdgpu.AmdPartition;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three one-GPU vLLM pods on one MI300X in CPX mode: each holds one of its eight partitions (gpu_id
 * 0, 1, 2), and only partition 0 reports the GPU's activity, power and energy. Each pod counts as
 * an eighth of a GPU; its energy is its eighth of the GPU's, whichever partition it holds; the
 * utilisation comes from the partition that reports it, not averaged with the others' zeros.
 */
class AmdPartitionPanelsTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final long WINDOW_MS = 300_000;

  private static SimulatedFleet fleet;
  private static List<String> pods;

  /** Per step: pod -> {GPU joules, generated tokens}. */
  private static final Map<Long, Map<String, double[]>> TRUTH = new LinkedHashMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(3)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of("org/model-a", "org/model-b", "org/model-c"))
            .gpusPerNode(1)
            .nodes(1)
            .amdNodes(1)
            .amdPartition(AmdPartition.CPX)
            .build();
    fleet = new SimulatedFleet(config, true);
    pods = fleet.fleet.pods().stream().map(p -> p.info().name()).toList();
    fleet.run(
        Duration.ofMinutes(8),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            double generated = ((VllmPod) p).metrics(0).generationTokens();
            String pod = p.info().name();
            at.put(pod, new double[] {fleet.fleet.gpuEnergyJoules(pod), generated});
          }
          TRUTH.put(snap.timeMillis(), at);
        });
  }

  private static AmdExporter amd() {
    return fleet.fleet.amdExporter(pods.get(0)).orElseThrow();
  }

  private static PromqlCompiler.Options options() {
    return new PromqlCompiler.Options(
        Filters.NONE,
        Map.of(),
        0.95,
        "5m",
        Presence.of(
            new DashboardService(QueryStack.of(fleet.backend), CATALOG)
                .inventory(fleet.now())
                .families()));
  }

  private static Vector query(String q) {
    return (Vector) fleet.backend.instantQuery(q, fleet.now()).value();
  }

  /** A panel's first query now, keyed by pod and GPU ({@code pod/gpu}) or by pod. */
  private static Map<String, Double> values(String panelId) {
    var panel = Dashboards.panel(panelId);
    Measure m = panel.queries().get(0).measure();
    String q = new PromqlCompiler(CATALOG).compile(m, panel.level(), options()).orElseThrow();
    Map<String, Double> out = new HashMap<>();
    for (Sample s : query(q).samples()) {
      String key =
          s.labels().get("pod") + (panel.level() == Level.GPU ? "/" + s.labels().get("gpu") : "");
      assertThat(out.put(key, s.value())).as(key + " once: " + q).isNull();
    }
    return out;
  }

  @Test
  void thePodsHoldPartitionsZeroToTwoOfOneGpu() {
    assertThat(amd().partition()).isEqualTo(AmdPartition.CPX);
    assertThat(amd().gpus()).hasSize(8);
    for (int i = 0; i < 3; i++) {
      assertThat(amd().gpus().get(i).attribution().pod()).isEqualTo(pods.get(i));
    }
    assertThat(amd().powerWatts(pods.get(0)).get(0)).isPositive();
    assertThat(amd().powerWatts(pods.get(1))).containsExactly(0L);
  }

  @Test
  void eachPodCountsAnEighthOfAnMi300x() {
    String q =
        new PromqlCompiler(CATALOG)
            .compileGpuCount(List.of("namespace", "pod", "modelName"), options())
            .orElseThrow();
    Map<String, Double> count = new HashMap<>();
    for (Sample s : query(q).samples()) {
      assertThat(s.labels().get("modelName")).isEqualTo(AmdExporter.MI300X_CARD_MODEL);
      count.put(s.labels().get("pod"), s.value());
    }
    assertThat(count).containsOnlyKeys(pods);
    count.values().forEach(v -> assertThat(v).isCloseTo(0.125, within(1e-12)));
  }

  @Test
  void utilisationComesFromThePartitionThatReportsIt() {
    double gfx = amd().gfxActivity(pods.get(0)).get(0);
    assertThat(gfx).as("the GPU works").isPositive();
    // partition 0 alone: the others' zeros are neither shown as idle nor averaged in
    assertThat(values("gpu.utilization")).containsOnlyKeys(pods.get(0) + "/0");
    assertThat(values("gpu.utilization").get(pods.get(0) + "/0")).isEqualTo(gfx);
  }

  @Test
  void energyPerTokenIsEachPodsShareOfItsGpusJoulesOverItsTokens() {
    Map<String, double[]> last = TRUTH.get(fleet.now());
    Map<String, double[]> first = TRUTH.get(fleet.now() - WINDOW_MS + 15_000);
    Map<String, Double> panel = values("pod.energy_per_token");
    assertThat(panel).containsOnlyKeys(pods);
    for (String pod : pods) {
      double want = (last.get(pod)[0] - first.get(pod)[0]) / (last.get(pod)[1] - first.get(pod)[1]);
      assertThat(want).as(pod).isGreaterThan(0);
      assertThat(panel.get(pod)).as(pod).isCloseTo(want, within(want * 1e-6));
    }
  }

  @Test
  void theEfficiencyFiguresMeterAndPriceEachPartitionAsItsShare() {
    long end = fleet.now();
    double price = 3.5;
    Efficiency e =
        new EfficiencyService(
                fleet.backend,
                new InventoryService(CATALOG, fleet.backend),
                () ->
                    new LlmConfig.Cost(
                        "USD", Optional.empty(), Map.of(AmdExporter.MI300X_CARD_MODEL, price)))
            .compute(
                new EfficiencyRequest(
                    OptionalLong.of(end - WINDOW_MS),
                    OptionalLong.of(end),
                    OptionalLong.of(15_000),
                    "",
                    ""));
    for (String pod : List.of(pods.get(0), pods.get(2))) {
      List<Group> hits = e.pods().stream().filter(g -> pod.equals(g.labels().get("pod"))).toList();
      assertThat(hits).as(pod).hasSize(1);
      Figures f = hits.get(0).figures();
      double joules = TRUTH.get(end).get(pod)[0] - TRUTH.get(end - WINDOW_MS).get(pod)[0];
      assertThat(joules).isPositive();
      assertThat(f.energyJoules().present()).as(f.energyJoules().reason()).isTrue();
      assertThat(f.energyJoules().get()).as(pod).isCloseTo(joules, within(joules * 1e-9));
      assertThat(f.gpuSecondsByGpuModel())
          .containsOnlyKeys(AmdExporter.MI300X_CARD_MODEL)
          .containsEntry(AmdExporter.MI300X_CARD_MODEL, WINDOW_MS / 1000.0 / 8);
      assertThat(f.cost().get()).isCloseTo(WINDOW_MS / 1000.0 / 8 / 3600 * price, within(1e-9));
    }
  }
}
