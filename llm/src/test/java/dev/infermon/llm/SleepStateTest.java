package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.dashboard.Filters;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.vllm.VllmSleep;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * vLLM's sleep state in the pod table's panel and in the causal chain, against the simulated
 * fleet's truth: its current vLLM pods (one with two data-parallel engines) are awake, each engine
 * writing {@code sleep_state="awake"} 1 and the two sleep levels 0, so every pod has a point, and
 * it is 0 engines asleep; the 0.11 pod predates the gauge and has none. Put to sleep ({@link
 * VllmSleep}), a pod shows as many engines asleep as the simulator put to sleep.
 */
class SleepStateTest {
  @Test
  void awakePodsShowZeroEnginesAsleepInThePodTableAndTheCausalChain() {
    SimulatedFleet fleet =
        new SimulatedFleet(
            FleetConfig.builder()
                .vllmPods(2)
                .dataParallelPods(1)
                .legacyVllmPods(1)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .models(List.of("meta-llama/Llama-3.1-8B-Instruct"))
                .build(),
            false);
    fleet.run(Duration.ofMinutes(2));
    for (String id : List.of("pod.sleep", "causal_pod.sleep")) {
      Map<String, Double> asleep =
          PanelValues.panel(fleet.backend, fleet.now(), id, 0, Filters.NONE);
      assertThat(asleep).as(id).hasSize(2);
      assertThat(asleep.keySet()).as(id).noneMatch(pod -> pod.contains("0-11"));
      assertThat(asleep).as(id).allSatisfy((pod, v) -> assertThat(v).as(pod).isZero());
    }
  }

  @Test
  void sleepingPodsShowTheirEnginesAsleepAsTheSimulatorPutThemToSleep() {
    SimulatedFleet fleet =
        new SimulatedFleet(
            FleetConfig.builder()
                .vllmPods(3)
                .dataParallelPods(1)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .models(List.of("meta-llama/Llama-3.1-8B-Instruct"))
                // every current pod, the third one with its two data-parallel engines
                .vllmSleep(new VllmSleep(3, 2, 60, 600))
                .build(),
            false);
    fleet.run(Duration.ofMinutes(2));
    Map<String, Double> want = new HashMap<>();
    for (InferencePod p : fleet.fleet.pods()) {
      boolean asleep = ((VllmPod) p).sleepLevel(fleet.now() / 1000.0) > 0;
      want.put(p.info().name(), asleep ? (double) p.engines().size() : 0.0);
    }
    assertThat(want.values()).containsExactlyInAnyOrder(1.0, 1.0, 2.0);
    for (String id : List.of("pod.sleep", "causal_pod.sleep")) {
      assertThat(PanelValues.panel(fleet.backend, fleet.now(), id, 0, Filters.NONE))
          .as(id)
          .isEqualTo(want);
    }
  }
}
