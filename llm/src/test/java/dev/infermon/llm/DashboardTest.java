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
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.signals.Signal;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.SglangPod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.vllm.VllmMetrics;
import dev.infermon.simulator.vllm.VllmRelease;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboard over a simulated fleet (vLLM current with two data-parallel engines, vLLM 0.11,
 * SGLang with two TP ranks reporting, prefill/decode pairs, dcgm-exporter stored as a Prometheus
 * with honor_labels=false stores it) in the error-spike scenario; values are checked against truth
 * the simulator's own counters and scheduler state give, never against PromQL.
 */
class DashboardTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static SimulatedFleet fleet;
  private static DashboardService service;

  /** Per step: pod -> [finished, failed, generated] summed over engines, and gauges. */
  private static final Map<Long, Map<String, double[]>> truth = new LinkedHashMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .scenario(Scenario.ERROR_SPIKE)
            .legacyRelease(VllmRelease.V0_11)
            .speculativeTokens(4) // the current pods draft: every panel has data
            .lora(new LoraAdapters(List.of("sql", "chat"), 2)) // and serve LoRA adapters
            .kvCacheMetrics(true) // and sample KV blocks
            .lmcachePods(1) // and one offloads KV to LMCache
            .build();
    fleet = new SimulatedFleet(config, true);
    fleet.run(
        Duration.ofMinutes(10),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            double[] v = new double[4];
            if (p instanceof VllmPod) {
              for (int i = 0; i < p.engines().size(); i++) {
                VllmMetrics m = ((VllmPod) p).metrics(i);
                for (String r : new String[] {"stop", "length", "abort", "error"}) {
                  v[0] += m.finished(r);
                }
                v[1] += m.finished("abort") + m.finished("error");
                v[2] += m.generationTokens();
              }
              for (EngineModel e : p.engines()) {
                v[3] += e.state().running();
              }
            } else if (p instanceof SglangPod) {
              v[2] = ((SglangPod) p).metrics().generationTokens();
              v[3] = ((SglangPod) p).metrics().gauges().running();
            }
            at.put(p.info().name(), v);
          }
          truth.put(snap.timeMillis(), at);
        });
    service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
  }

  private static double instant(Measure m, Level level, String pod) {
    Inventory inv = service.inventory(fleet.now());
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.of(Map.of("namespace", "inference")),
            Map.of(),
            0.95,
            "5m",
            Presence.of(inv.families()));
    String q = new PromqlCompiler(CATALOG).compile(m, level, o).orElseThrow();
    Vector v = (Vector) fleet.backend.instantQuery(q, fleet.now()).value();
    String key = level == Level.MODEL ? "model_name" : "pod";
    for (Sample s : v.samples()) {
      if (s.labels().get(key).equals(pod)) {
        return s.value();
      }
    }
    throw new AssertionError("no series for " + pod + " in " + v.samples() + " from " + q);
  }

  /** The window PromQL's rate sees: samples in (now-5m, now], the first at now-285s. */
  private static double[] delta(String pod) {
    double[] end = truth.get(fleet.now()).get(pod);
    double[] start = truth.get(fleet.now() - 285_000).get(pod);
    double[] d = new double[end.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = end[i] - start[i];
    }
    return d;
  }

  private static String pod(String prefix) {
    for (PodInfo i : fleet.fleet.inventory()) {
      if (i.name().startsWith(prefix)) {
        return i.name();
      }
    }
    throw new AssertionError(prefix);
  }

  @Test
  void successRateIsTheShareOfStopAndLengthAmongFinishedRequests() {
    for (String prefix :
        new String[] {"vllm-qwen2-5-32b-instruct-", "vllm-deepseek-r1-distill-llama-70b-dp-"}) {
      String pod = pod(prefix);
      double[] d = delta(pod);
      assertThat(d[1]).as("the error spike fails requests").isPositive();
      double want = 1 - d[1] / d[0];
      assertThat(instant(new Measure.SuccessRate(), Level.POD, pod)).isCloseTo(want, within(1e-9));
    }
  }

  @Test
  void tokenThroughputOfAModelSumsItsPodsAndDataParallelEngines() {
    String model = "deepseek-ai/DeepSeek-R1-Distill-Llama-70B";
    double want = 0;
    for (PodInfo i : fleet.fleet.inventory()) {
      if (i.model().equals(model)) {
        want += delta(i.name())[2] / 285.0;
      }
    }
    assertThat(instant(new Measure.Rate(Signal.GENERATION_TOKENS), Level.MODEL, model))
        .isCloseTo(want, within(want * 1e-9));
  }

  @Test
  void trapDataParallelEnginesAreSummed() {
    String pod = pod("vllm-deepseek-r1-distill-llama-70b-dp-");
    assertThat(fleet.fleet.pod(pod).engines()).hasSize(2);
    double want = truth.get(fleet.now()).get(pod)[3];
    assertThat(instant(new Measure.Level(Signal.REQUESTS_RUNNING), Level.POD, pod)).isEqualTo(want);
  }

  @Test
  void trapSglangTensorParallelDuplicatesAreNotSummed() {
    String pod = pod("sglang-qwen2-5-32b-instruct-");
    assertThat(fleet.fleet.pod(pod).info().tensorParallel()).isEqualTo(2);
    double want = truth.get(fleet.now()).get(pod)[3];
    assertThat(instant(new Measure.Level(Signal.REQUESTS_RUNNING), Level.POD, pod)).isEqualTo(want);
  }

  @Test
  void trapGpusJoinThroughExportedPodAndUnattributedGpusDropOut() {
    Inventory inv = service.inventory(fleet.now());
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(Filters.NONE, Map.of(), 0.95, "5m", Presence.of(inv.families()));
    String q =
        "count by (namespace, pod) ("
            + new PromqlCompiler(CATALOG)
                .compile(new Measure.Gpu(Signal.GPU_MEMORY_USED), Level.GPU, o)
                .orElseThrow()
            + ")";
    Vector v = (Vector) fleet.backend.instantQuery(q, fleet.now()).value();
    Map<String, Double> gpus = new HashMap<>();
    v.samples().forEach(s -> gpus.put(s.labels().get("pod"), s.value()));
    int attributed = 0;
    for (PodInfo i : fleet.fleet.inventory()) {
      if (!i.engine().equals("dcgm-exporter")) {
        assertThat(gpus.get(i.name())).as(i.name()).isEqualTo((double) i.gpus());
        attributed += i.gpus();
      }
    }
    Vector all =
        (Vector) fleet.backend.instantQuery("count(DCGM_FI_DEV_FB_USED)", fleet.now()).value();
    assertThat(all.samples().get(0).value()).as("spare GPUs exist").isGreaterThan(attributed);
    // stored as honor_labels=false: the raw pod label is the exporter's, a naive join finds nothing
    Vector raw =
        (Vector)
            fleet
                .backend
                .instantQuery("count(DCGM_FI_DEV_FB_USED{pod=~\"vllm-.*\"})", fleet.now())
                .value();
    assertThat(raw.samples()).isEmpty();
  }

  @Test
  void everyPanelHasDataOrSaysWhy() {
    List<PanelResult> panels =
        service.render(DashboardRequest.of(Filters.NONE, fleet.now() - 300_000, fleet.now()));
    Map<String, PanelResult> byId = new HashMap<>();
    panels.forEach(p -> byId.put(p.panel().id(), p));
    for (PanelResult p : panels) {
      if (p.panel().id().endsWith(".admission_rejections")) {
        // the simulator runs no queue cap: the counter (vLLM 0.32+) is on no simulated page
        assertThat(p.status()).as(p.panel().id()).isEqualTo(PanelResult.Status.EMPTY);
        assertThat(p.reasons())
            .as(p.panel().id())
            .extracting(EmptyReason::kind, EmptyReason::engine, EmptyReason::version)
            .contains(
                org.assertj.core.groups.Tuple.tuple(EmptyReason.Kind.NOT_EXPOSED, "vllm", "0.32"),
                org.assertj.core.groups.Tuple.tuple(EmptyReason.Kind.NOT_EXPOSED, "sglang", null));
        continue;
      }
      if (p.panel().id().equals("efficiency.cost_per_million_tokens")) {
        // this service has no llm.cost prices: the panel says so (EfficiencyTest has prices)
        assertThat(p.status()).as(p.panel().id()).isEqualTo(PanelResult.Status.EMPTY);
        assertThat(p.reasons())
            .extracting(EmptyReason::kind)
            .contains(EmptyReason.Kind.NOT_CONFIGURED);
        continue;
      }
      if (p.panel().queries().stream().allMatch(q -> q.measure() instanceof Measure.Router)) {
        // no router in front of the simulated pods: said, never an error (RouterDashboardTest)
        assertThat(p.reasons())
            .as(p.panel().id())
            .extracting(EmptyReason::kind)
            .containsExactly(EmptyReason.Kind.NO_ROUTER);
        continue;
      }
      assertThat(p.status()).as(p.panel().id()).isNotEqualTo(PanelResult.Status.EMPTY);
      for (PanelResult.QueryData q : p.queries()) {
        assertThat(q.warnings())
            .as(q.promql())
            .allSatisfy(w -> assertThat(w).doesNotContain("error"));
      }
    }
    // the engines and releases that lack a signal are named, with the release that has it
    assertThat(byId.get("pod.waiting_by_reason").reasons())
        .extracting(EmptyReason::kind, EmptyReason::engine, EmptyReason::version)
        .contains(
            org.assertj.core.groups.Tuple.tuple(EmptyReason.Kind.NOT_EXPOSED, "vllm", "0.24"),
            org.assertj.core.groups.Tuple.tuple(EmptyReason.Kind.NOT_EXPOSED, "sglang", null));
    assertThat(byId.get("pod.finish_reasons").status()).isEqualTo(PanelResult.Status.PARTIAL);
    assertThat(byId.get("model.success_rate").status()).isEqualTo(PanelResult.Status.OK);
  }
}
