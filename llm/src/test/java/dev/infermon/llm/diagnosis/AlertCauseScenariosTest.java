package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.rules.AlertSnapshot;
import dev.infermon.simulator.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * The default pack's alerts carry their cause: the fleet of {@link DiagnosisScenariosTest} runs 5
 * minutes healthy and 20 in the scenario while the rules module evaluates the pack every minute,
 * annotated by {@link DiagnosisService#alertAnnotations} as {@code infermon serve} wires it. At the
 * end, every firing alert the row requires names in its {@code cause} the state the scenario
 * produces (an optional one, marked {@code ?}, a state that explains its own symptom), its evidence
 * is there, and its dashboard link is filtered to the alert's namespace and model; and the cause
 * changes while an alert fires when the scenario does. The table of scenarios ({@link #TABLE}) is
 * the one server's {@code AlertCauseAlertmanagerTest} sends through a real Alertmanager.
 */
class AlertCauseScenariosTest {
  static final String URL = "http://infermon:9090";

  /** Scenario, the alerts firing at its end, the cause they name. */
  static final String TABLE = "/dev/infermon/llm/diagnosis/alert-causes.csv";

  @ParameterizedTest(name = "{0}")
  // the table server's AlertCauseAlertmanagerTest reads too
  @CsvFileSource(resources = TABLE, delimiter = '|')
  void everyFiringAlertCarriesTheScenariosCause(String scenario, String alerts, String cause) {
    ScrapedFleet f = new ScrapedFleet(DiagnosisScenariosTest.fleet());
    DiagnosisService diagnosis = new DiagnosisService(f.backend, Catalog.builtIn());
    PackAlerts pack =
        new PackAlerts(
            f.storage,
            a ->
                diagnosis.alertAnnotations(
                    a.alertName(),
                    a.expr(),
                    a.labels().toMap(),
                    a.activeAtMs(),
                    a.evalTimeMs(),
                    URL));
    f.run(Duration.ofMinutes(5), t -> evalEveryMinute(pack, t));
    f.fleet.setScenario(Scenario.fromCliName(scenario));
    f.run(Duration.ofMinutes(20), t -> evalEveryMinute(pack, t));

    Map<PackAlerts.Firing, Map<String, String>> firing = pack.firingAnnotations();
    System.out.println("== " + scenario + "\n" + firing);
    // every alert of the pack that fires is the row's: the row's always, its optional ones (marked
    // '?', timing-dependent) may
    Set<String> fired =
        firing.keySet().stream().map(PackAlerts.Firing::alert).collect(Collectors.toSet());
    Set<String> required = new TreeSet<>();
    Set<String> allowed = new TreeSet<>();
    for (String a : DiagnosisScenariosTest.words(alerts)) {
      allowed.add(a.replace("?", ""));
      if (!a.endsWith("?")) {
        required.add(a);
      }
    }
    assertThat(fired).as("firing").containsAll(required);
    assertThat(allowed).as("firing beyond the row").containsAll(fired);
    for (Map.Entry<PackAlerts.Firing, Map<String, String>> e : firing.entrySet()) {
      Map<String, String> a = e.getValue();
      PackAlerts.Firing alert = e.getKey();
      if (required.contains(alert.alert())) {
        assertThat(a.get(AlertCause.CAUSE)).as(alert + ": " + a).startsWith(cause + " on ");
      } else {
        // an optional alert names a state that explains its own symptom (the queue's timeouts
        // are errors-rising), as the table says
        assertThat(explaining(PackAlerts.SYMPTOMS.get(alert.alert())))
            .as(alert + ": " + a)
            .anySatisfy(s -> assertThat(a.get(AlertCause.CAUSE)).startsWith(s + " on "));
      }
      assertThat(a.get(AlertCause.EVIDENCE)).as(alert + ": " + a).contains(" = ").contains(" at ");
      assertThat(a.get(AlertCause.DASHBOARD))
          .startsWith(URL + "/dashboard?namespace=" + alert.namespace() + "&model=")
          .contains("&to=" + f.now());
      assertThat(a).doesNotContainKey(AlertCause.ERROR).containsKey("summary");
      assertThat(a.get(AlertCause.INCIDENT))
          .startsWith(URL + "/incident?alert=" + alert.alert() + "%7B")
          .contains("namespace%3D%22" + alert.namespace() + "%22");
    }
  }

  /**
   * The cause follows the fleet while the alert fires: KV pressure for 20 minutes, then long
   * prompts for 35. The TTFT alert fires from its {@code for} on to the end as one alert (the same
   * firing time at every evaluation: it never resolves in between), and its {@code cause} is
   * re-evaluated at each: kv-pressure at first, and once the diagnosis window holds only the long
   * prompts, kv-pressure is gone and prefill-bound is named, on the alert that fired under KV
   * pressure.
   */
  @org.junit.jupiter.api.Test
  void theCauseChangesWhileTheAlertFires() {
    ScrapedFleet f = new ScrapedFleet(DiagnosisScenariosTest.fleet());
    DiagnosisService diagnosis = new DiagnosisService(f.backend, Catalog.builtIn());
    PackAlerts pack =
        new PackAlerts(
            f.storage,
            a ->
                diagnosis.alertAnnotations(
                    a.alertName(),
                    a.expr(),
                    a.labels().toMap(),
                    a.activeAtMs(),
                    a.evalTimeMs(),
                    URL));
    // at every evaluation once the TTFT alert fires: its firing time and its cause
    List<long[]> firedAt = new ArrayList<>();
    List<String> causes = new ArrayList<>();
    java.util.function.LongConsumer evalAndRecord =
        t -> {
          if ((t - ScrapedFleet.START) % 60_000 != 0) {
            return;
          }
          pack.eval(t);
          List<AlertSnapshot> ttft = pack.firingSnapshots(AlertPack.TTFT);
          assertThat(ttft.size()).as("TTFT alerts firing at " + t).isLessThanOrEqualTo(1);
          if (!ttft.isEmpty() || !firedAt.isEmpty()) {
            assertThat(ttft).as("the TTFT alert, once firing, still firing at " + t).hasSize(1);
            firedAt.add(new long[] {t, ttft.get(0).firedAt()});
            causes.add(ttft.get(0).annotations().get(AlertCause.CAUSE));
          }
        };
    f.fleet.setScenario(Scenario.KV_PRESSURE);
    f.run(Duration.ofMinutes(20), evalAndRecord);
    assertThat(ttftCause(pack)).startsWith("kv-pressure on ");
    long firedUnderKvPressure = firedAt.get(firedAt.size() - 1)[1];
    f.fleet.setScenario(Scenario.LONG_PROMPTS);
    f.run(Duration.ofMinutes(35), evalAndRecord);
    // the backlog KV pressure left drains for a while on one vLLM pod (idle-gpu-long-queue there,
    // named first by the chain's order); the long prompts are prefill-bound on the others
    assertThat(ttftCause(pack)).doesNotContain("kv-pressure").contains("prefill-bound");
    assertThat(firedAt)
        .as("one firing alert throughout: its firing time at every evaluation")
        .allSatisfy(e -> assertThat(e[1]).as("at " + e[0]).isEqualTo(firedUnderKvPressure));
    // re-evaluated at each evaluation, not once when the alert fired: the figures move with the
    // window, and the state named changed
    assertThat(new java.util.LinkedHashSet<>(causes).size())
        .as("distinct causes over " + causes.size() + " evaluations")
        .isGreaterThan(2);
    System.out.println(
        "== the TTFT alert's cause at each evaluation\n" + String.join("\n", causes));
  }

  private static String ttftCause(PackAlerts pack) {
    return pack.firingAnnotations().entrySet().stream()
        .filter(e -> e.getKey().alert().equals("LLMTimeToFirstTokenHigh"))
        .map(e -> e.getValue().get(AlertCause.CAUSE))
        .findFirst()
        .orElse("the TTFT alert is not firing: " + pack.firing());
  }

  /** The states that explain {@code symptom}, cause-not-found among them. */
  private static List<String> explaining(Symptom symptom) {
    List<String> out = new ArrayList<>();
    for (State s : State.values()) {
      if (s.explains().contains(symptom) || s == State.CAUSE_NOT_FOUND) {
        out.add(s.id());
      }
    }
    return out;
  }

  private static void evalEveryMinute(PackAlerts pack, long t) {
    if ((t - ScrapedFleet.START) % 60_000 == 0) {
      pack.eval(t);
    }
  }
}
