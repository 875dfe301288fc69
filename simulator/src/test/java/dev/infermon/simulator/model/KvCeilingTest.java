package dev.infermon.simulator.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.ModelProfile;
import org.junit.jupiter.api.Test;

/**
 * The capacity ground truth is the engine's own behaviour: below the ceiling a steady load neither
 * preempts nor fills the cache, just above it it does, and what makes a request hold its KV longer
 * (a slower card) or the cache smaller lowers the ceiling.
 */
class KvCeilingTest {
  private static final ModelProfile P = ModelProfile.LLAMA_70B;

  @Test
  void theCeilingSeparatesRoomFromPreemption() {
    double c = KvCeiling.requestRate(P.params(), P.workload(), ScenarioEffects.NONE, 7);
    KvCeiling.Probe below =
        KvCeiling.probe(P.params(), P.workload(), ScenarioEffects.NONE, 7, c * 0.9);
    KvCeiling.Probe above =
        KvCeiling.probe(P.params(), P.workload(), ScenarioEffects.NONE, 7, c * 1.1);
    assertThat(below.saturated()).as("at 0.9x the ceiling: %s", below).isFalse();
    assertThat(below.meanKvUsage()).isLessThan(KvCeiling.SATURATED_USAGE);
    assertThat(above.saturated()).as("at 1.1x the ceiling: %s", above).isTrue();
    assertThat(above.preemptions()).isPositive();
    // the built-in profiles run well inside their ceiling at the base rate
    assertThat(c).isGreaterThan(2 * P.workload().requestsPerSecond());
  }

  @Test
  void aSlowerCardOrASmallerCacheLowersTheCeiling() {
    double healthy = KvCeiling.requestRate(P.params(), P.workload(), ScenarioEffects.NONE, 7);
    double slow =
        KvCeiling.requestRate(
            P.params(), P.workload(), new ScenarioEffects(1, 1, 3, 0, 1, 0, 0, 0), 7);
    double small =
        KvCeiling.requestRate(
            P.params(), P.workload(), new ScenarioEffects(1, 0.5, 1, 0, 1, 0, 0, 0), 7);
    assertThat(slow).isLessThan(healthy * 0.6);
    assertThat(small).isLessThan(healthy * 0.8);
  }

  @Test
  void theArrivalFactorOfAScenarioIsNotPartOfTheCeiling() {
    double plain = KvCeiling.requestRate(P.params(), P.workload(), ScenarioEffects.NONE, 7);
    double tripled =
        KvCeiling.requestRate(
            P.params(), P.workload(), new ScenarioEffects(3, 1, 1, 0, 1, 0, 0, 0), 7);
    assertThat(tripled).isEqualTo(plain);
  }
}
