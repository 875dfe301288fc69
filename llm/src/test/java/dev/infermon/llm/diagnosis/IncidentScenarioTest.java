package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.llm.BadParameterException;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.simulator.Scenario;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The incident of the default pack's TTFT alert on the fleet of {@link DiagnosisScenariosTest}: 20
 * minutes of KV pressure, then 35 of long prompts, then 25 healthy, the pack evaluated every minute
 * by the rules module (its {@code ALERTS} series in the same storage). The incident read at the end
 * of the long prompts is firing, its symptom is the TTFT quantile above the pack's 1 s while it
 * fires, its timeline names KV pressure and then, once only the long prompts are in the window,
 * prefill-bound, and its pods are the model's pods those causes were found on; read once the fleet
 * is healthy again, it is resolved and ends when the alert stopped firing.
 */
class IncidentScenarioTest {
  /** The pack's TTFT rule's expression, as serve loads it. */
  static final String TTFT_EXPR =
      AlertPack.rules(
              Catalog.builtIn(),
              new java.util.LinkedHashSet<>(Catalog.ENGINES),
              dev.infermon.config.app.LlmConfig.Alerts.DEFAULT)
          .stream()
          .filter(r -> r.alert().equals(AlertPack.TTFT))
          .findFirst()
          .orElseThrow()
          .expr();

  static ScrapedFleet fleet;
  static DiagnosisService diagnosis;
  static Map<String, String> ttft;
  static long whileFiring;

  @BeforeAll
  static void run() {
    fleet = new ScrapedFleet(DiagnosisScenariosTest.fleet());
    diagnosis = new DiagnosisService(fleet.backend, Catalog.builtIn());
    PackAlerts pack = new PackAlerts(fleet.storage);
    fleet.fleet.setScenario(Scenario.KV_PRESSURE);
    fleet.run(Duration.ofMinutes(20), t -> evalEveryMinute(pack, t));
    fleet.fleet.setScenario(Scenario.LONG_PROMPTS);
    fleet.run(Duration.ofMinutes(35), t -> evalEveryMinute(pack, t));
    List<Map<String, String>> firing = pack.firingLabels(AlertPack.TTFT);
    assertThat(firing).as("the TTFT alert fires at the end of the long prompts").hasSize(1);
    ttft = firing.get(0);
    whileFiring = fleet.now();
    fleet.fleet.setScenario(Scenario.HEALTHY);
    fleet.run(Duration.ofMinutes(25), t -> evalEveryMinute(pack, t));
    assertThat(pack.firingLabels(AlertPack.TTFT)).as("resolved once healthy").isEmpty();
  }

  private static void evalEveryMinute(PackAlerts pack, long t) {
    if ((t - ScrapedFleet.START) % 60_000 == 0) {
      pack.eval(t);
    }
  }

  private static Incident incidentAt(long end) {
    Optional<Incident> i =
        diagnosis.incident(
            new IncidentRequest(
                ttft,
                TTFT_EXPR,
                OptionalLong.of(end),
                OptionalLong.empty(),
                OptionalLong.empty(),
                OptionalLong.empty()));
    assertThat(i).as("the TTFT alert's incident").isPresent();
    return i.get();
  }

  @Test
  void whileItFiresTheTimelineGoesFromKvPressureToTheLongPrompts() {
    Incident i = incidentAt(whileFiring);
    assertThat(i.resolved()).isFalse();
    assertThat(i.firingEndMs()).isEqualTo(whileFiring);
    // the pack's TTFT alert holds for 10 minutes before it fires
    assertThat(i.firingStartMs())
        .isGreaterThanOrEqualTo(ScrapedFleet.START + Duration.ofMinutes(10).toMillis())
        .isLessThan(ScrapedFleet.START + Duration.ofMinutes(20).toMillis());
    assertThat(i.startMs())
        .isLessThanOrEqualTo(i.firingStartMs() - Duration.ofMinutes(30).toMillis());

    assertThat(i.symptom().labels()).containsEntry("model_name", ttft.get("model_name"));
    int firingFrom = (int) ((i.firingStartMs() - i.symptom().startMs()) / i.stepMs());
    List<Double> firingValues =
        i.symptom().values().subList(firingFrom, i.symptom().values().size());
    assertThat(firingValues.stream().filter(v -> !v.isNaN()).mapToDouble(v -> v).max().orElse(0))
        .as("TTFT p95 while firing, %s", firingValues)
        .isGreaterThan(1);

    List<String> states = i.timeline().stream().map(Incident.Cause::state).toList();
    assertThat(states).as("%s", i.timeline()).contains("kv-pressure");
    // at the end, the long prompts: prefill-bound on most pods, named after the backlog KV pressure
    // left on one vLLM pod (idle-gpu-long-queue there, first by the chain's order)
    Incident.Cause last = i.timeline().get(i.timeline().size() - 1);
    assertThat(last.cause()).doesNotContain("kv-pressure").contains("prefill-bound");
    assertThat(states.indexOf("kv-pressure")).isLessThan(i.timeline().size() - 1);
    for (int k = 1; k < i.timeline().size(); k++) {
      Incident.Cause prev = i.timeline().get(k - 1);
      Incident.Cause next = i.timeline().get(k);
      assertThat(next.fromMs()).isGreaterThan(prev.toMs());
      assertThat(next.state() + next.pod())
          .as("an entry is a change")
          .isNotEqualTo(prev.state() + prev.pod());
    }
    Incident.Cause kv = i.timeline().get(states.indexOf("kv-pressure"));
    assertThat(kv.cause()).startsWith("kv-pressure on ");
    assertThat(kv.evidence()).isNotEmpty();
    assertThat(last.toMs()).isEqualTo(whileFiring);
    assertThat(i.evaluations()).hasSizeBetween(2, Incidents.MAX_EVALUATIONS);

    assertThat(i.pods()).isNotEmpty().allMatch(p -> p.model().equals(ttft.get("model_name")));
    Predicate<Incident.Pod> kvPod = p -> p.states().contains("kv-pressure");
    assertThat(i.pods()).anyMatch(kvPod).anyMatch(p -> p.states().contains("prefill-bound"));
    assertThat(i.pods()).anyMatch(p -> p.pod().equals(kv.pod()));
    assertThat(i.note()).isEmpty();

    Map<String, Object> json = IncidentJson.tree(i);
    assertThat(json).containsEntry("state", "firing").containsEntry("alert", ttft);
    assertThat(json.get("firingEnd")).isEqualTo(whileFiring / 1000.0);
    assertThat((List<?>) json.get("timeline")).hasSameSizeAs(i.timeline());
  }

  @Test
  void onceResolvedTheViewEndsWhenTheAlertStoppedFiring() {
    Incident i = incidentAt(fleet.now());
    assertThat(i.resolved()).isTrue();
    assertThat(i.firingEndMs()).isGreaterThanOrEqualTo(whileFiring).isLessThan(fleet.now());
    assertThat(i.endMs()).isEqualTo(i.firingEndMs());
    assertThat(incidentAt(whileFiring).firingStartMs()).isEqualTo(i.firingStartMs());
  }

  @Test
  void anAlertThatDidNotFireHasNoIncident() {
    Map<String, String> other = new java.util.HashMap<>(ttft);
    other.put("model_name", "no-such-model");
    assertThat(
            diagnosis.incident(
                new IncidentRequest(
                    other,
                    TTFT_EXPR,
                    OptionalLong.of(fleet.now()),
                    OptionalLong.empty(),
                    OptionalLong.empty(),
                    OptionalLong.empty())))
        .isEmpty();
  }

  @Test
  void aBadLookbackOrLeadInNamesItsParameter() {
    IncidentRequest tooLong =
        new IncidentRequest(
            ttft,
            "up",
            OptionalLong.empty(),
            OptionalLong.of(8 * 86_400_000L),
            OptionalLong.empty(),
            OptionalLong.empty());
    assertThatThrownBy(() -> diagnosis.incident(tooLong))
        .isInstanceOfSatisfying(
            BadParameterException.class, e -> assertThat(e.parameter()).isEqualTo("lookback"));
    IncidentRequest negative =
        new IncidentRequest(
            ttft,
            "up",
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.of(-1),
            OptionalLong.empty());
    assertThatThrownBy(() -> diagnosis.incident(negative))
        .isInstanceOfSatisfying(
            BadParameterException.class, e -> assertThat(e.parameter()).isEqualTo("lead_in"));
  }
}
