package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.Scenario;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Diagnosis on every simulator scenario: a small fleet serving one model (three vLLM pods, one
 * SGLang pod, a vLLM and an SGLang prefill/decode pair, dcgm-exporter) runs 5 minutes healthy,
 * switches to the scenario, runs 12 more, and those 12 minutes are diagnosed through the embedded
 * query backend through {@link DiagnosisService}. Each scenario gives its expected state; {@code
 * healthy} gives none.
 */
class DiagnosisScenariosTest {
  static FleetConfig fleet() {
    return FleetConfig.builder()
        .vllmPods(3)
        .dataParallelPods(0)
        .legacyVllmPods(0)
        .sglangPods(1)
        .sglangGatewayPods(0)
        .prefillDecode(true)
        .models(List.of(ModelProfile.LLAMA_8B.name()))
        .build();
  }

  static Diagnosis diagnose(Scenario scenario) {
    ScrapedFleet f = new ScrapedFleet(fleet()).run(Duration.ofMinutes(5));
    f.fleet.setScenario(scenario);
    long switched = f.now();
    f.run(Duration.ofMinutes(12));
    long end = f.now();
    return new DiagnosisService(f.backend, Catalog.builtIn())
        .diagnose(DiagnosisRequest.between(switched, end, 30_000));
  }

  static State expected(Scenario s) {
    switch (s) {
      case SATURATED:
        return State.SATURATED;
      case KV_PRESSURE:
        return State.KV_PRESSURE;
      case DEFERRED_BY_CONFIG:
        return State.DEFERRED_BY_CONFIG;
      case IDLE_GPU_LONG_QUEUE:
        return State.IDLE_GPU_LONG_QUEUE;
      case SLOW_POD:
        return State.SLOW_POD;
      case ERROR_SPIKE:
        return State.ERRORS_RISING;
      case POD_RESTART:
        return State.RESTARTED;
      default:
        return null;
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Scenario.class)
  void scenarioGivesItsState(Scenario scenario) {
    Diagnosis d = diagnose(scenario);
    Set<State> states =
        d.findings().stream().map(Finding::state).collect(Collectors.toCollection(TreeSet::new));
    String all =
        d.findings().stream()
            .map(f -> f.state().id() + " " + f.pod() + ": " + f.summary())
            .collect(Collectors.joining("\n"));
    // the surefire report keeps what each scenario gave (docs/diagnosis.md quotes it)
    System.out.println("== " + scenario.cliName() + "\n" + all);
    assertThat(d.pods()).isNotEmpty();
    State want = expected(scenario);
    if (want == null) {
      assertThat(d.findings()).as(all).isEmpty();
    } else {
      assertThat(states).as(all).contains(want);
      for (Finding f : d.findings()) {
        if (f.state() == want) {
          assertThat(f.evidence()).as(f.summary()).isNotEmpty();
          assertThat(f.evidence().get(0).query()).isNotBlank();
        }
      }
    }
  }
}
