package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Level;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.signals.Signal;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.TgiPod;
import dev.infermon.simulator.tgi.TgiMetrics;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A mixed fleet of two Hugging Face TGI pods and a vLLM pod serving one model, in the error-spike
 * scenario: the panels TGI has the signal for read its pods with the values the simulated routers
 * counted (success rate, token throughput, batch and queue), the model level adds them to the vLLM
 * pod's, and the panels TGI has no family for say so.
 */
class TgiDashboardTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static SimulatedFleet fleet;
  private static DashboardService service;
  private static final Map<String, PanelResult> panels = new HashMap<>();

  /** Per step: TGI pod -> [succeeded, failed, input tokens, generated tokens, running, queued]. */
  private static final Map<Long, Map<String, double[]>> truth = new LinkedHashMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(1)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .tgiPods(2)
            .models(List.of(MODEL))
            .scenario(Scenario.ERROR_SPIKE)
            .build();
    fleet = new SimulatedFleet(config, true);
    fleet.run(
        Duration.ofMinutes(10),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            if (p instanceof TgiPod) {
              TgiMetrics m = ((TgiPod) p).metrics();
              at.put(
                  p.info().name(),
                  new double[] {
                    m.requestSuccess(),
                    m.failed(),
                    m.inputTokens(),
                    m.generatedTokens(),
                    p.engines().get(0).state().running(),
                    p.engines().get(0).state().waiting()
                  });
            }
          }
          truth.put(snap.timeMillis(), at);
        });
    service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
    for (PanelResult p :
        service.render(DashboardRequest.of(Filters.NONE, fleet.now() - 300_000, fleet.now()))) {
      panels.put(p.panel().id(), p);
    }
  }

  private static List<String> tgiPods() {
    return fleet.fleet.inventory().stream()
        .filter(i -> i.engine().equals("tgi"))
        .map(PodInfo::name)
        .toList();
  }

  private static double instant(Measure m, Level level, String key) {
    return PanelValues.required(fleet.backend, fleet.now(), m, level, key);
  }

  /** What the routers counted in the window PromQL's rate sees. */
  private static double[] delta(String pod) {
    return PanelValues.delta(truth, fleet.now(), pod);
  }

  @Test
  void theInventoryKnowsTheTgiPods() {
    Inventory inv = service.inventory(fleet.now());
    int tgi = 0;
    for (TargetInventory t : inv.targets()) {
      if (t.detection().engine().equals("tgi")) {
        tgi++;
        assertThat(t.detection().spelling().key()).isEqualTo("tgi/tgi_");
        assertThat(t.detection().versions().last().name()).isEqualTo("3.3");
      }
    }
    assertThat(tgi).isEqualTo(2);
  }

  @Test
  void successRateIsSuccessesAmongSuccessesAndFailures() {
    for (String pod : tgiPods()) {
      double[] d = delta(pod);
      assertThat(d[1]).as("the error spike fails requests").isPositive();
      double want = 1 - d[1] / (d[0] + d[1]);
      assertThat(instant(new Measure.SuccessRate(), Level.POD, pod)).isCloseTo(want, within(1e-9));
    }
  }

  @Test
  void tokenThroughputReadsTheLengthHistogramsSums() {
    for (String pod : tgiPods()) {
      double[] d = delta(pod);
      assertThat(d[3]).isPositive();
      assertThat(instant(new Measure.Rate(Signal.PROMPT_TOKENS), Level.POD, pod))
          .isCloseTo(d[2] / 285.0, within(d[2] / 285.0 * 1e-9));
      assertThat(instant(new Measure.Rate(Signal.GENERATION_TOKENS), Level.POD, pod))
          .isCloseTo(d[3] / 285.0, within(d[3] / 285.0 * 1e-9));
    }
  }

  @Test
  void batchAndQueueAreTheRoutersGauges() {
    for (String pod : tgiPods()) {
      double[] now = truth.get(fleet.now()).get(pod);
      assertThat(instant(new Measure.Level(Signal.REQUESTS_RUNNING), Level.POD, pod))
          .isEqualTo(now[4]);
      assertThat(instant(new Measure.Level(Signal.REQUESTS_WAITING), Level.POD, pod))
          .isEqualTo(now[5]);
    }
  }

  @Test
  void theModelLevelAddsTgiPodsToTheVllmPodOfTheirModel() {
    double pods = 0;
    for (PodInfo i : fleet.fleet.inventory()) {
      if (MODEL.equals(i.model())) {
        pods += instant(new Measure.Level(Signal.REQUESTS_RUNNING), Level.POD, i.name());
      }
    }
    assertThat(instant(new Measure.Level(Signal.REQUESTS_RUNNING), Level.MODEL, MODEL))
        .isEqualTo(pods);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "model.qps",
    "model.success_rate",
    "model.e2e",
    "model.tokens",
    "model.tpot",
    "model.prompt_length",
    "pod.e2e",
    "pod.scheduler",
    "pod.queue_time",
    "pod.tokens"
  })
  void panelsTgiHasTheSignalForReadItsPods(String id) {
    PanelResult p = panels.get(id);
    assertThat(p.status()).as(id + " " + p.reasons()).isNotEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.queries().stream().map(PanelResult.QueryData::promql).toList().toString())
        .as(id)
        .contains("tgi_");
    // a reason about TGI is only about a panel's other query, for a signal TGI has no family for
    for (EmptyReason r : p.reasons()) {
      if (r.engine().equals("tgi")) {
        assertThat(r.kind()).as(id + " " + r).isEqualTo(EmptyReason.Kind.NOT_EXPOSED);
        String name = r.message().replaceAll(".*does not expose (.+) in any release.*", "$1");
        Signal signal =
            Arrays.stream(Signal.values())
                .filter(x -> x.displayName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(id + ": no signal is named " + name));
        assertThat(CATALOG.engine("tgi").sources(signal)).as(id + " " + r).isEmpty();
      }
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "model.ttft, ttft",
    "pod.kv_usage, kv_usage",
    "pod.preemptions, preemptions",
    "model.prefix_cache_hit_rate, prefix_cache_hits"
  })
  void panelsTgiHasNoFamilyForSayWhy(String id, String signal) {
    PanelResult p = panels.get(id);
    assertThat(p.reasons())
        .as(id)
        .filteredOn(r -> r.engine().equals("tgi"))
        .extracting(EmptyReason::kind, EmptyReason::message)
        .anySatisfy(
            t -> {
              assertThat(t.toList().get(0)).isEqualTo(EmptyReason.Kind.NOT_EXPOSED);
              assertThat((String) t.toList().get(1))
                  .contains("Hugging Face TGI does not expose")
                  .contains(Signal.fromKey(signal).displayName());
            });
  }
}
