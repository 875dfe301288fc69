package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.Scenario;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Diagnosis on every simulator scenario, as a user meets it when an alert fires: a small fleet
 * serving one model (three vLLM pods, one SGLang pod, a vLLM and an SGLang prefill/decode pair,
 * dcgm-exporter) runs 5 minutes healthy, switches to the scenario and runs 20 more, long enough for
 * every alert's {@code for}; the default alert pack is evaluated every minute by the rules module
 * over what is stored ({@link PackAlerts}), and at the end {@link DiagnosisService} diagnoses its
 * default window (the last 30 minutes) through the embedded query backend. Each row says which
 * alerts fire and which states the diagnosis must name; for every alert that fires there must be a
 * finding on its model that explains its symptom, with evidence, or says plainly that the symptom
 * is there and what could not be read.
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

  /** What one scenario's run gives: the alerts firing at its end and the diagnosis then. */
  record Run(Set<PackAlerts.Firing> firing, Diagnosis diagnosis) {}

  static Run run(Scenario scenario) {
    ScrapedFleet f = new ScrapedFleet(fleet());
    PackAlerts pack = new PackAlerts(f.storage);
    // every minute of the fleet's clock, as the rule manager's default interval
    f.run(Duration.ofMinutes(5), t -> evalEveryMinute(pack, t));
    f.fleet.setScenario(scenario);
    f.run(Duration.ofMinutes(20), t -> evalEveryMinute(pack, t));
    Diagnosis d =
        new DiagnosisService(f.backend, Catalog.builtIn())
            .diagnose(
                new DiagnosisRequest(
                    OptionalLong.empty(),
                    OptionalLong.of(f.now()),
                    OptionalLong.empty(),
                    OptionalLong.empty()));
    return new Run(pack.firing(), d);
  }

  private static void evalEveryMinute(PackAlerts pack, long t) {
    if ((t - ScrapedFleet.START) % 60_000 == 0) {
      pack.eval(t);
    }
  }

  static Set<String> words(String s) {
    return s == null ? Set.of() : new TreeSet<>(Arrays.asList(s.trim().split("\\s+")));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # scenario          | alerts firing at the end                                  | states named (at least)
          healthy             |                                                           |
          saturated           | LLMTimeToFirstTokenHigh LLMRequestsQueuedWhilePreempting  | saturated kv-pressure pd-bottleneck
          kv-pressure         | LLMTimeToFirstTokenHigh LLMRequestsQueuedWhilePreempting  | kv-pressure
          deferred-by-config  | LLMTimeToFirstTokenHigh                                   | deferred-by-config
          idle-gpu-long-queue | LLMTimeToFirstTokenHigh                                   | idle-gpu-long-queue
          long-prompts        | LLMTimeToFirstTokenHigh                                   | prefill-bound
          slow-pod            |                                                           | slow-pod
          error-spike         | LLMRequestFailuresHigh                                    | errors-rising
          pod-restart         |                                                           | restarted
          """)
  void everyFiringAlertHasAFinding(String scenario, String alerts, String states) {
    Run r = run(Scenario.fromCliName(scenario));
    Diagnosis d = r.diagnosis();
    String all =
        d.findings().stream()
            .map(
                f ->
                    f.state().id()
                        + " "
                        + (f.pod().isEmpty() ? "(model)" : f.pod())
                        + " "
                        + f.symptoms().stream().map(Symptom::id).toList()
                        + ": "
                        + f.summary())
            .collect(Collectors.joining("\n"));
    // the surefire report keeps what each scenario gave (docs/diagnosis.md quotes it)
    System.out.println("== " + scenario + "\nfiring: " + r.firing() + "\n" + all);
    assertThat(d.pods()).isNotEmpty();
    assertThat(r.firing().stream().map(PackAlerts.Firing::alert).collect(Collectors.toSet()))
        .as("alerts firing")
        .isEqualTo(words(alerts));
    for (PackAlerts.Firing a : r.firing()) {
      Symptom symptom = PackAlerts.SYMPTOMS.get(a.alert());
      assertThat(d.findings())
          .as(a + " needs a finding on its model that explains " + symptom.id() + "\n" + all)
          .anySatisfy(
              f -> {
                assertThat(f.model()).isEqualTo(a.model());
                assertThat(f.namespace()).isEqualTo(a.namespace());
                assertThat(f.symptoms()).contains(symptom);
                assertThat(f.evidence()).isNotEmpty();
                assertThat(f.evidence().get(0).query()).isNotBlank();
              });
    }
    Set<String> named = d.findings().stream().map(f -> f.state().id()).collect(Collectors.toSet());
    assertThat(named).as(all).containsAll(words(states));
    if (words(states).isEmpty()) {
      assertThat(d.findings()).as(all).isEmpty();
    }
    for (Finding f : d.findings()) {
      if (f.state() == State.CAUSE_NOT_FOUND) {
        assertThat(f.summary()).contains("cause not found");
        assertThat(f.symptoms()).hasSize(1);
      }
    }
  }

  @Test
  void everyScenarioHasARow() throws Exception {
    String table =
        DiagnosisScenariosTest.class
            .getDeclaredMethod(
                "everyFiringAlertHasAFinding", String.class, String.class, String.class)
            .getAnnotation(CsvSource.class)
            .textBlock();
    for (Scenario s : Scenario.values()) {
      assertThat(table).as(s.cliName()).containsPattern("(?m)^" + s.cliName() + "\\s+\\|");
    }
  }
}
