package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.model.KvCeiling;
import org.junit.jupiter.api.Test;

/**
 * A scenario whose cause is not the KV cache stays clear of the cache's ceiling at any hour: the
 * fleet's load swings over the day and bursts ({@link FleetLayout#shape}), so a scenario that runs
 * inside its ceiling at one hour and past it at the daily peak in a burst would show its own cause
 * at one time of day and KV pressure at another (a test of the diagnosis that passes or fails by
 * the hour it runs at). The ceiling is the engine's own ({@link KvCeiling}): the rate at which it
 * preempts or keeps its cache full.
 */
class ScenarioCeilingTest {
  /** Below this share of the ceiling, the cache has room beside the diagnosis's 90% threshold. */
  static final double MARGIN = 0.7;

  @Test
  void longPromptsStayInsideTheKvCeilingAtTheDailyPeakInABurst() {
    ModelProfile p = ModelProfile.forName("scenario/long-prompts");
    double peak =
        p.workload().requestsPerSecond()
            * Scenario.LONG_PROMPTS.effects().arrivalFactor()
            * FleetLayout.shape(FleetConfig.builder().build().seed(), p).maxMultiplier();
    double ceiling =
        KvCeiling.requestRate(p.params(), p.workload(), Scenario.LONG_PROMPTS.effects(), 7);
    assertThat(peak)
        .as("long prompts' busiest rate per pod against its KV ceiling %.3f", ceiling)
        .isLessThan(MARGIN * ceiling);
  }
}
