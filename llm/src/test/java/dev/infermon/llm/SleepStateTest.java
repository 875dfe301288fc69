package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.dashboard.Filters;
import dev.infermon.simulator.FleetConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * vLLM's sleep state in the pod table's panel and in the causal chain, against the simulated
 * fleet's truth: its current vLLM pods (one with two data-parallel engines) are awake, each engine
 * writing {@code sleep_state="awake"} 1 and the two sleep levels 0, so every pod has a point, and
 * it is 0 engines asleep; the 0.11 pod predates the gauge and has none.
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
}
