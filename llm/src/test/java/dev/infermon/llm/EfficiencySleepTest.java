package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.efficiency.Efficiency;
import dev.infermon.llm.efficiency.EfficiencyRequest;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.efficiency.Figures;
import dev.infermon.llm.efficiency.Group;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.vllm.VllmSleep;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A vLLM pod asleep (vLLM sleep mode) for part of the window: the GPU-seconds of its sleep are
 * counted as asleep, not as idle, to the step the simulator put it to sleep; its awake peer has no
 * asleep time. The same on an NVIDIA node and on an AMD one: sleep is the engine's state, the GPU
 * time the exporter's attribution.
 */
class EfficiencySleepTest {
  private static final long STEP_MS = 15_000;
  private static final long WINDOW_MS = 300_000;

  /** On H100s under dcgm-exporter (0 AMD nodes) and on MI300Xs under AMD's exporter (1). */
  @ParameterizedTest(name = "AMD nodes: {0}")
  @ValueSource(ints = {0, 1})
  void aSleepingPodsGpuTimeIsAsleepNotIdle(int amdNodes) {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of("org/model-a"))
            // asleep from minute 5 of 8: the last 3 minutes of the 5-minute window
            .vllmSleep(new VllmSleep(1, 2, 300, 3600))
            .amdNodes(amdNodes)
            .build();
    SimulatedFleet fleet = new SimulatedFleet(config, true);
    // the simulator's truth at each scrape: the sleeping pod's running requests
    Map<Long, Integer> running = new TreeMap<>();
    fleet.run(
        Duration.ofMinutes(8),
        snap ->
            running.put(
                snap.timeMillis(), fleet.fleet.pods().get(0).engines().get(0).state().running()));
    long end = fleet.now();
    Efficiency e =
        new EfficiencyService(
                fleet.backend,
                new InventoryService(Catalog.builtIn(), fleet.backend),
                () -> new LlmConfig.Cost("USD", Optional.empty(), Map.of()))
            .compute(
                new EfficiencyRequest(
                    OptionalLong.of(end - WINDOW_MS),
                    OptionalLong.of(end),
                    OptionalLong.of(STEP_MS),
                    "",
                    ""));
    PodInfo sleeper = fleet.fleet.pods().get(0).info();
    PodInfo peer = fleet.fleet.pods().get(1).info();
    // the pods fill the first node, which is the AMD one when there is one
    String exporter = amdNodes == 0 ? "dcgm" : "amdgpu";
    assertThat(fleet.fleet.inventory())
        .anyMatch(i -> i.backend().label().equals(exporter) && i.node().equals(sleeper.node()));
    // the simulator's truth: the sampled steps at which the pod slept, or ran nothing awake
    double asleepTruth = 0;
    double idleTruth = 0;
    for (long t = end - WINDOW_MS + STEP_MS; t <= end; t += STEP_MS) {
      if (((VllmPod) fleet.fleet.pods().get(0)).sleepLevel(t / 1000.0) > 0) {
        asleepTruth += sleeper.gpus() * STEP_MS / 1000.0;
      } else if (running.get(t) == 0) {
        idleTruth += sleeper.gpus() * STEP_MS / 1000.0;
      }
    }
    assertThat(asleepTruth).isBetween(sleeper.gpus() * 150.0, sleeper.gpus() * 210.0);
    Figures s = pod(e, sleeper.name());
    assertThat(s.asleepGpuSeconds().get()).isEqualTo(asleepTruth);
    // asleep and running nothing, yet not idle: only the awake steps without a request are
    assertThat(s.idleGpuSeconds().get()).isEqualTo(idleTruth);
    assertThat(s.gpuSeconds().get()).isEqualTo(sleeper.gpus() * 300.0);
    Figures p = pod(e, peer.name());
    assertThat(p.asleepGpuSeconds().get()).isZero();
    assertThat(p.generatedTokens().get()).isPositive();
  }

  private static Figures pod(Efficiency e, String name) {
    List<Group> g = e.pods().stream().filter(x -> x.labels().get("pod").equals(name)).toList();
    assertThat(g).hasSize(1);
    return g.get(0).figures();
  }
}
