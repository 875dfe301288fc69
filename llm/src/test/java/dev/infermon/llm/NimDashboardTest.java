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
import dev.infermon.simulator.NimPod;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.vllm.VllmMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A mixed fleet of two simulated NVIDIA NIM pods and a vLLM pod serving one model, in the
 * error-spike scenario, scraped as a Prometheus would: the NIM pods are detected as the capture is
 * (vLLM-compatible, no prefix, NVIDIA NIM's spelling), the panels NIM has the signal for read its
 * pods with the values the simulated engines counted (TTFT, running and waiting requests, KV usage,
 * token throughput, finished requests and the success rate from request_finish_total and NIM's
 * request_failure_total), the model level adds them to the vLLM pod's, and the panels NIM has no
 * family for say it serves a fixed subset.
 */
class NimDashboardTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static SimulatedFleet fleet;
  private static DashboardService service;
  private static final Map<String, PanelResult> panels = new HashMap<>();

  /**
   * Per step: NIM pod -> [finished by stop or length, failed, prompt tokens, generation tokens,
   * running, waiting, KV usage, TTFT count, TTFT sum, num_request_max].
   */
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
            .nimPods(2)
            .models(List.of(MODEL))
            .scenario(Scenario.ERROR_SPIKE)
            .build();
    fleet = new SimulatedFleet(config, true);
    fleet.run(
        Duration.ofMinutes(10),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            if (p instanceof NimPod) {
              VllmMetrics m = ((NimPod) p).metrics();
              var s = p.engines().get(0).state();
              at.put(
                  p.info().name(),
                  new double[] {
                    m.finished("stop") + m.finished("length"),
                    m.finished("abort") + m.finished("error"),
                    m.promptTokens(),
                    m.generationTokens(),
                    s.running(),
                    s.waiting(),
                    s.kvUsage(),
                    m.ttft().count(),
                    m.ttft().sum(),
                    ((NimPod) p).maxRequests()
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

  private static List<String> nimPods() {
    return fleet.fleet.inventory().stream()
        .filter(i -> i.engine().equals("nim"))
        .map(PodInfo::name)
        .toList();
  }

  private static double instant(Measure m, Level level, String key) {
    return PanelValues.required(fleet.backend, fleet.now(), m, level, key);
  }

  /** What the engines counted in the window PromQL's rate sees. */
  private static double[] delta(String pod) {
    return PanelValues.delta(truth, fleet.now(), pod);
  }

  @Test
  void theNimPodsAreDetectedAsTheCaptureIs() {
    Inventory inv = service.inventory(fleet.now());
    int nim = 0;
    for (TargetInventory t : inv.targets()) {
      if ("nim".equals(t.label("backend"))) {
        nim++;
        assertThat(t.engine()).isEqualTo("vllm");
        assertThat(t.detection().prefix()).isEmpty();
        assertThat(t.detection().spelling().label()).isEqualTo("(no prefix)");
        assertThat(t.detection().spelling().variant().product()).isEqualTo("NVIDIA NIM");
        assertThat(t.detection().versions().last().name()).isNotEqualTo("0.33");
      }
    }
    assertThat(nim).isEqualTo(2);
  }

  @Test
  void successRateIsFinishedAmongFinishedAndFailed() {
    for (String pod : nimPods()) {
      double[] d = delta(pod);
      assertThat(d[1]).as("the error spike fails requests").isPositive();
      double want = 1 - d[1] / (d[0] + d[1]);
      assertThat(instant(new Measure.SuccessRate(), Level.POD, pod)).isCloseTo(want, within(1e-9));
      assertThat(instant(new Measure.Rate(Signal.REQUESTS_FINISHED), Level.POD, pod))
          .isCloseTo((d[0] + d[1]) / 285.0, within(1e-9));
    }
  }

  @Test
  void finishReasonsAreRequestFinishTotalsReasons() {
    PanelResult p = panels.get("pod.finish_reasons");
    Map<String, Double> perPod = new HashMap<>();
    for (PanelResult.QueryData q : p.queries()) {
      assertThat(q.promql()).contains("request_finish_total");
      for (PanelResult.SeriesData s : q.series()) {
        String pod = s.labels().get("pod");
        if (nimPods().contains(pod)) {
          assertThat(s.labels().get("finished_reason")).isIn("stop", "length");
          perPod.merge(pod, s.last(), Double::sum);
        }
      }
    }
    for (String pod : nimPods()) {
      assertThat(perPod.get(pod)).as(pod).isCloseTo(delta(pod)[0] / 285.0, within(1e-9));
    }
  }

  @Test
  void tokenThroughputIsTheEnginesTokenCounters() {
    for (String pod : nimPods()) {
      double[] d = delta(pod);
      assertThat(d[3]).isPositive();
      assertThat(instant(new Measure.Rate(Signal.PROMPT_TOKENS), Level.POD, pod))
          .isCloseTo(d[2] / 285.0, within(d[2] / 285.0 * 1e-9));
      assertThat(instant(new Measure.Rate(Signal.GENERATION_TOKENS), Level.POD, pod))
          .isCloseTo(d[3] / 285.0, within(d[3] / 285.0 * 1e-9));
    }
  }

  @Test
  void ttftIsTheEnginesMeanTimeToFirstToken() {
    for (String pod : nimPods()) {
      double[] d = delta(pod);
      assertThat(d[7]).isPositive();
      assertThat(instant(new Measure.Mean(Signal.TTFT), Level.POD, pod))
          .isCloseTo(d[8] / d[7], within(1e-9));
    }
  }

  @Test
  void schedulerAndKvGaugesAreTheEnginesState() {
    for (String pod : nimPods()) {
      double[] now = truth.get(fleet.now()).get(pod);
      assertThat(instant(new Measure.Level(Signal.REQUESTS_RUNNING), Level.POD, pod))
          .isEqualTo(now[4])
          .isLessThanOrEqualTo(now[9]);
      assertThat(instant(new Measure.Level(Signal.REQUESTS_WAITING), Level.POD, pod))
          .isEqualTo(now[5]);
      assertThat(instant(new Measure.Level(Signal.KV_USAGE), Level.POD, pod)).isEqualTo(now[6]);
    }
  }

  @Test
  void theModelLevelAddsNimPodsToTheVllmPodOfTheirModel() {
    double pods = 0;
    for (PodInfo i : fleet.fleet.inventory()) {
      if (MODEL.equals(i.model())) {
        pods += instant(new Measure.Level(Signal.REQUESTS_RUNNING), Level.POD, i.name());
      }
    }
    assertThat(nimPods()).hasSize(2);
    assertThat(instant(new Measure.Level(Signal.REQUESTS_RUNNING), Level.MODEL, MODEL))
        .isEqualTo(pods);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "model.qps",
    "model.success_rate",
    "model.ttft",
    "model.tpot",
    "model.e2e",
    "model.prompt_length",
    "pod.ttft",
    "pod.kv_usage",
    "pod.scheduler",
    "pod.tokens",
    "pod.finish_reasons"
  })
  void panelsNimHasTheSignalForShowItsPods(String id) {
    PanelResult p = panels.get(id);
    assertThat(p.status()).as(id + " " + p.reasons()).isNotEqualTo(PanelResult.Status.EMPTY);
    String promql = p.queries().stream().map(PanelResult.QueryData::promql).toList().toString();
    // NIM's unprefixed names are read (vLLM's own carry the vllm: prefix)
    assertThat(promql)
        .as(id)
        .containsPattern(
            "(?<![:_a-z])(time_to_first_token_seconds|gpu_cache_usage_perc|num_requests_running"
                + "|prompt_tokens_total|request_finish_total|request_prompt_tokens"
                + "|time_per_output_token_seconds|e2e_request_latency_seconds)");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "pod.preemptions, preemptions",
    "pod.queue_time, queue_time",
    "model.prefix_cache_hit_rate, prefix_cache_hits"
  })
  void panelsNimHasNoFamilyForSayItServesAFixedSubset(String id, String signal) {
    PanelResult p = panels.get(id);
    assertThat(p.reasons())
        .as(id)
        .filteredOn(r -> r.message().startsWith("NVIDIA NIM"))
        .isNotEmpty()
        .allSatisfy(
            r -> {
              assertThat(r.kind()).isEqualTo(EmptyReason.Kind.NOT_EXPOSED);
              assertThat(r.engine()).isEqualTo("vllm");
              assertThat(r.message())
                  .contains("NVIDIA NIM does not expose")
                  .contains("it serves a fixed subset of vLLM's families");
            });
    assertThat(CATALOG.engine("vllm").sources(Signal.fromKey(signal))).isNotEmpty();
  }
}
