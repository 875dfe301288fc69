package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Saturation and KV pressure are told apart the same way whatever the seed and the time of day: a
 * small fleet (two vLLM pods and one SGLang pod, as server's Alertmanager test runs per scenario)
 * runs 5 minutes healthy and 20 in the scenario (or, as {@code infermon demo --scenario} does, in
 * the scenario from the start), starting at times spread over the day (the daily load cycle and the
 * bursts differ) with a different seed each; the cause the TTFT and queue alerts get is then {@code
 * saturated} under twelve times the load and {@code kv-pressure} with the small cache, every time.
 * Under overload the KV cache is full too and both states are found; before the rare-preemption
 * test, saturation rested on running's median against its maximum alone, which sits at 0.75 to 0.82
 * of it there (the threshold is 0.75), so a fleet whose pods all fell under it was called
 * kv-pressure.
 */
class QueueCauseRankingTest {
  /** Starts this far apart cover the day's load cycle in a few runs. */
  static final long APART_MS = Duration.ofMinutes(3 * 60 + 11).toMillis();

  static Stream<Arguments> runs() {
    return Stream.of(
            IntStream.range(0, 8).mapToObj(k -> Arguments.of(Scenario.SATURATED, k, 5)),
            IntStream.range(0, 3).mapToObj(k -> Arguments.of(Scenario.KV_PRESSURE, k, 5)),
            IntStream.range(0, 4).mapToObj(k -> Arguments.of(Scenario.KV_PRESSURE, k, 0)))
        .flatMap(s -> s);
  }

  @ParameterizedTest(name = "{0}, start {1}, healthy for {2} min")
  @MethodSource("runs")
  void theQueueAlertsNameTheScenariosCause(Scenario scenario, int k, int healthyMinutes) {
    FleetConfig config =
        FleetConfig.builder()
            .seed(42 + k)
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(java.util.List.of(ModelProfile.LLAMA_8B.name()))
            .build();
    MemoryStorage storage = new MemoryStorage();
    DiagnosisService diagnosis =
        new DiagnosisService(
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)),
            Catalog.builtIn());
    Fleet fleet = Fleet.create(config, ScrapedFleet.START + k * APART_MS);
    new FleetScrape(storage, true).run(fleet, Duration.ofMinutes(healthyMinutes));
    fleet.setScenario(scenario);
    new FleetScrape(storage, true).run(fleet, Duration.ofMinutes(25 - healthyMinutes));
    long now = fleet.nowMillis();
    Map<String, String> labels =
        Map.of(
            "namespace", config.namespace(),
            "model_name", ModelProfile.LLAMA_8B.name(),
            "severity", "warning");
    for (String alert : new String[] {AlertPack.TTFT, AlertPack.QUEUED}) {
      AlertCause cause =
          diagnosis
              .causeOf(alert, "vllm:num_requests_waiting > 50", labels, now - 600_000, now)
              .orElseThrow();
      assertThat(cause.state()).as(alert + ": " + cause.cause()).isEqualTo(scenario.cliName());
    }
  }

  /**
   * {@code infermon demo --scenario kv-pressure} as server's incident test runs it: the small fleet
   * in KV pressure from the start, warmed up for 10 minutes and then scraped for 30, the pack
   * evaluated every minute; the TTFT alert's incident ends in kv-pressure. The batch is pinned near
   * its ceiling there too (the cache holds no more), and before a pinned batch of a preempting
   * cache was left to KV pressure the timeline said saturated.
   */
  @ParameterizedTest(name = "start {0}")
  @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
  void fromTheStartTheTtftIncidentEndsInKvPressure(int k) {
    FleetConfig config =
        FleetConfig.builder()
            .seed(42 + k)
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(java.util.List.of(ModelProfile.LLAMA_8B.name()))
            .scenario(Scenario.KV_PRESSURE)
            .build();
    MemoryStorage storage = new MemoryStorage();
    DiagnosisService diagnosis =
        new DiagnosisService(
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)),
            Catalog.builtIn());
    // the demo's targets run 10 minutes before the first scrape, so queues and caches are warm
    long warm = ScrapedFleet.START + k * 90 * 60_000L;
    Fleet fleet = Fleet.create(config, warm - Duration.ofMinutes(10).toMillis());
    fleet.advanceTo(warm);
    PackAlerts pack = new PackAlerts(storage);
    long start = fleet.nowMillis();
    new FleetScrape(storage, true)
        .run(
            fleet,
            Duration.ofMinutes(30),
            Duration.ofSeconds(5),
            snap -> {
              if ((snap.timeMillis() - start) % 60_000 == 0) {
                pack.eval(snap.timeMillis());
              }
            });
    List<Map<String, String>> firing = pack.firingLabels(AlertPack.TTFT);
    assertThat(firing).as("the TTFT alert fires").hasSize(1);
    Optional<Incident> incident =
        diagnosis.incident(
            new IncidentRequest(
                firing.get(0),
                IncidentScenarioTest.TTFT_EXPR,
                OptionalLong.of(fleet.nowMillis()),
                OptionalLong.empty(),
                OptionalLong.empty(),
                OptionalLong.empty()));
    assertThat(incident).isPresent();
    List<Incident.Cause> timeline = incident.get().timeline();
    assertThat(timeline).as("the timeline").isNotEmpty();
    assertThat(timeline.get(timeline.size() - 1).cause())
        .as("%s", timeline)
        .startsWith("kv-pressure on ");
  }
}
