package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.model.KvCeiling;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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

  /**
   * The scenarios whose cause is not the KV cache (the diagnosis must not see KV pressure), on the
   * 8B profile every scenario model of the tests is (a name that is no built-in profile).
   */
  @ParameterizedTest
  @EnumSource(
      value = Scenario.class,
      names = {"HEALTHY", "LONG_PROMPTS", "ERROR_SPIKE", "POD_RESTART"})
  void staysInsideTheKvCeilingAtTheDailyPeakInABurst(Scenario s) {
    ModelProfile p = ModelProfile.forName("scenario/" + s.cliName());
    double peak =
        p.workload().requestsPerSecond()
            * s.effects().arrivalFactor()
            * FleetLayout.shape(FleetConfig.builder().build().seed(), p).maxMultiplier();
    double ceiling = KvCeiling.requestRate(p.params(), p.workload(), s.effects(), 7);
    assertThat(peak)
        .as("%s: busiest rate per pod against its KV ceiling %.3f", s, ceiling)
        .isLessThan(MARGIN * ceiling);
  }
}
