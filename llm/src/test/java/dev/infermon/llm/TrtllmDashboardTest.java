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
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.EngineDetector;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.PageFamilies;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.TrtllmPod;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.trtllm.TrtllmMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Three simulated trtllm-serve pods (the trtllm_ generation, two models) through the scrape, the
 * inventory and the dashboard: detected as TensorRT-LLM, the panels it has the signal for equal the
 * servers' own counters, and the others say why they are empty, truly.
 */
class TrtllmDashboardTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final String OTHER = "Qwen/Qwen2.5-7B-Instruct";

  private static SimulatedFleet fleet;
  private static DashboardService service;
  private static final Map<String, PanelResult> panels = new HashMap<>();

  /** Per step: pod -> [prompt, generated, cached, finished, running, waiting, kv usage]. */
  private static final Map<Long, Map<String, double[]>> truth = new HashMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .trtllmPods(3)
            .models(List.of(MODEL, OTHER))
            .build();
    fleet = new SimulatedFleet(config, false);
    fleet.run(
        Duration.ofMinutes(7),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            TrtllmMetrics m = ((TrtllmPod) p).metrics();
            EngineState s = p.engines().get(0).state();
            at.put(
                p.info().name(),
                new double[] {
                  m.promptTokens(),
                  m.generationTokens(),
                  m.cachedTokens(),
                  m.finished(),
                  s.running(),
                  s.waiting(),
                  s.kvUsage()
                });
          }
          truth.put(snap.timeMillis(), at);
        });
    service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
    for (PanelResult p :
        service.render(DashboardRequest.of(Filters.NONE, fleet.now() - 300_000, fleet.now()))) {
      panels.put(p.panel().id(), p);
    }
  }

  /** Truth over the window rate sees: samples in (now-5m, now], the first at now-285s. */
  private static double delta(String pod, int i) {
    return truth.get(fleet.now()).get(pod)[i] - truth.get(fleet.now() - 285_000).get(pod)[i];
  }

  private static Map<String, Double> panel(String id, int query) {
    return PanelValues.panel(fleet.backend, fleet.now(), id, query, Filters.NONE);
  }

  @Test
  void panelsWithTheSignalHaveData() {
    for (String id :
        List.of(
            "model.qps",
            "model.e2e",
            "model.ttft",
            "model.tokens",
            "model.prefix_cache_hit_rate",
            "pod.e2e",
            "pod.ttft",
            "pod.tokens",
            "pod.kv_usage",
            "pod.finish_reasons",
            "pod.queue_time",
            "pod.phases",
            "pod.prefix_cache_hit_rate",
            "causal_pod.kv_usage",
            "causal_pod.queue")) {
      assertThat(panels.get(id).status()).as(id).isEqualTo(PanelResult.Status.OK);
    }
  }

  @Test
  void kvCapacityInTokensIsMaxBlocksTimesTokensPerBlock() {
    // kv_cache_max_blocks x kv_cache_tokens_per_block, against the engine the page describes
    Map<String, Double> tokens = panel("pod.kv_capacity", 0);
    Map<String, Double> blocks = panel("pod.kv_capacity", 1);
    assertThat(tokens.keySet()).hasSize(3);
    for (InferencePod p : fleet.fleet.pods()) {
      EngineState s = p.engines().get(0).state();
      assertThat(s.blockSize()).as(p.info().name()).isGreaterThan(1);
      assertThat(tokens.get(p.info().name()))
          .as(p.info().name())
          .isEqualTo((double) s.totalBlocks() * s.blockSize());
      assertThat(blocks.get(p.info().name())).as(p.info().name()).isEqualTo(s.totalBlocks());
    }
    assertThat(panels.get("model.kv_capacity").reasons()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pod.preemptions|TensorRT-LLM does not expose request preemptions in any release",
        "pod.waiting_by_reason|TensorRT-LLM does not expose waiting requests by reason in any release",
        "model.prompt_length|TensorRT-LLM does not expose prompt length in any release",
        "pod.decode_per_token|TensorRT-LLM does not expose generation length in any release",
        "pod.lora_adapters|TensorRT-LLM does not expose LoRA adapters in any release",
      })
  void signalsItNeverHadSaySo(String id, String reason) {
    PanelResult p = panels.get(id);
    assertThat(p.status()).as(id).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.reasons()).extracting(EmptyReason::message).contains(reason);
  }

  @Test
  void tpotIsPerRequestAndItlIsMissing() {
    PanelResult p = panels.get("pod.tpot");
    assertThat(p.status()).isEqualTo(PanelResult.Status.PARTIAL);
    assertThat(p.reasons())
        .extracting(EmptyReason::message)
        .containsExactly("TensorRT-LLM does not expose inter-token latency in any release");
  }

  @Test
  void specDecodePanelsNameTheSwitch() {
    assertThat(panels.get("pod.spec_acceptance").reasons())
        .extracting(EmptyReason::message)
        .contains(
            "TensorRT-LLM exposes accepted speculative tokens only with speculative decoding"
                + " (speculative_config) (trtllm_spec_decode_num_accepted_tokens_total)");
  }

  @Test
  void successRateCountsTheErrorAnswers() {
    SimulatedFleet spike =
        new SimulatedFleet(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .trtllmPods(1)
                .models(List.of(MODEL))
                .scenario(Scenario.ERROR_SPIKE)
                .build(),
            false);
    Map<Long, double[]> seen = new HashMap<>();
    spike.run(
        Duration.ofMinutes(6),
        snap -> {
          TrtllmMetrics m = ((TrtllmPod) spike.fleet.pods().get(0)).metrics();
          seen.put(snap.timeMillis(), new double[] {m.finished(), m.errors()});
        });
    double[] end = seen.get(spike.now());
    double[] start = seen.get(spike.now() - 285_000);
    double finished = end[0] - start[0];
    double errors = end[1] - start[1];
    assertThat(errors).as("the error spike fails requests").isPositive();
    String pod = spike.fleet.pods().get(0).info().name();
    double rate =
        PanelValues.at(
                spike.backend, spike.now(), new Measure.SuccessRate(), Level.POD, Filters.NONE)
            .get(pod);
    assertThat(rate).isCloseTo(1 - errors / (finished + errors), within(1e-9));
  }

  @Test
  void theSimulatedPageIsCataloguedAndDetected() throws Exception {
    String pod = fleet.fleet.pods().get(0).info().name();
    byte[] page = fleet.fleet.render(pod).orElseThrow().getBytes(StandardCharsets.UTF_8);
    Map<String, FamilyInfo> families = PageFamilies.parse(page, null);
    assertThat(CatalogCheck.problems(CATALOG, "trtllm", "main", families)).isEmpty();
    Detection d = new EngineDetector(CATALOG).detect(families);
    assertThat(d.engine()).isEqualTo("trtllm");
    assertThat(d.prefix()).isEqualTo("trtllm_");
    // trtllm_prompt_tokens_total and the iteration gauges came with #12545
    assertThat(d.versions().first().name()).isEqualTo("main");
  }

  @Test
  void theStoredInventoryNamesTheEngine() {
    List<TargetInventory> targets =
        service.inventory(fleet.now()).filter(t -> !t.engine().equals("dcgm")).targets();
    assertThat(targets).hasSize(3);
    for (TargetInventory t : targets) {
      assertThat(t.engine()).isEqualTo("trtllm");
      assertThat(t.label("backend")).isEqualTo("trtllm");
    }
  }

  @Test
  void podTokenThroughputIsTheServersCountersRate() {
    Map<String, Double> in = panel("pod.tokens", 0);
    Map<String, Double> out = panel("pod.tokens", 1);
    assertThat(in).hasSize(3);
    for (String pod : truth.get(fleet.now()).keySet()) {
      double prompt = delta(pod, 0) / 285.0;
      double generated = delta(pod, 1) / 285.0;
      assertThat(prompt).as(pod).isPositive();
      assertThat(in.get(pod)).as(pod + " in").isCloseTo(prompt, within(prompt * 1e-9));
      assertThat(out.get(pod)).as(pod + " out").isCloseTo(generated, within(generated * 1e-9));
    }
  }

  @Test
  void podSchedulerAndKvUsageAreTheEnginesState() {
    Map<String, Double> running = panel("pod.scheduler", 0);
    Map<String, Double> waiting = panel("pod.scheduler", 1);
    Map<String, Double> kv = panel("pod.kv_usage", 0);
    for (String pod : truth.get(fleet.now()).keySet()) {
      double[] now = truth.get(fleet.now()).get(pod);
      assertThat(running.get(pod)).as(pod).isEqualTo(now[4]);
      assertThat(waiting.get(pod)).as(pod).isEqualTo(now[5]);
      assertThat(kv.get(pod)).as(pod).isCloseTo(now[6], within(1e-12));
    }
  }

  @Test
  void theModelLevelSumsEachModelsPods() {
    Map<String, Double> expected = new HashMap<>();
    for (InferencePod p : fleet.fleet.pods()) {
      expected.merge(p.info().model(), delta(p.info().name(), 0) / 285.0, Double::sum);
    }
    assertThat(expected).hasSize(2);
    Map<String, Double> tokens = panel("model.tokens", 0);
    assertThat(tokens).containsOnlyKeys(expected.keySet());
    expected.forEach(
        (m, v) -> assertThat(tokens.get(m)).as(m).isPositive().isCloseTo(v, within(v * 1e-9)));
  }

  @Test
  void prefixCacheHitRateIsCachedAmongPromptTokens() {
    Map<String, Double> rate = panel("pod.prefix_cache_hit_rate", 0);
    for (String pod : truth.get(fleet.now()).keySet()) {
      double want = delta(pod, 2) / delta(pod, 0);
      assertThat(want).as(pod).isPositive();
      assertThat(rate.get(pod)).as(pod).isCloseTo(want, within(1e-9));
    }
  }

  @Test
  void aPageWhoseModelIsUndefinedTakesTheWorkloadsName() {
    SimulatedFleet old = trtllmPair(b -> b.trtllmRelease13(2));
    Map<Long, Map<String, Double>> finished = finishedPerWorkload(old);
    String page = old.fleet.render(old.fleet.pods().get(0).info().name()).orElseThrow();
    assertThat(page).contains("model_name=\"undefined\"").doesNotContain("trtllm_prompt_tokens");
    DashboardService s = new DashboardService(QueryStack.of(old.backend), CATALOG);
    List<TargetInventory> targets =
        s.inventory(old.now()).filter(t -> !t.engine().equals("dcgm")).targets();
    assertThat(targets).hasSize(2);
    for (TargetInventory t : targets) {
      // the families date it from 1.3 (#11243's gauges); every one of them is lazy or behind a
      // flag in main, so names alone cannot exclude main
      assertThat(t.detection().versions().toString()).isEqualTo("1.3–main");
      assertThat(t.models()).containsExactly(t.label("workload_name"));
    }
    Map<String, Double> qps =
        PanelValues.panel(old.backend, old.now(), "model.qps", 0, Filters.NONE);
    assertThat(qps).containsOnlyKeys(finished.get(old.now()).keySet());
    qps.forEach(
        (w, v) -> {
          double want =
              (finished.get(old.now()).get(w) - finished.get(old.now() - 285_000).get(w)) / 285.0;
          assertThat(v).as(w).isPositive().isCloseTo(want, within(want * 1e-9));
        });
    // 1.3 writes kv_cache_utilization, an enable_iter_perf_stats gauge: the flag is on, and the
    // scheduler gauges and KV blocks are missing because they came later (main), not the flag
    for (PanelResult p :
        s.render(DashboardRequest.of(Filters.NONE, old.now() - 300_000, old.now()))) {
      if (!List.of("pod.scheduler", "pod.kv_capacity", "causal_pod.queue")
          .contains(p.panel().id())) {
        continue;
      }
      assertThat(p.reasons()).as(p.panel().id()).isNotEmpty();
      for (EmptyReason r : p.reasons()) {
        if (r.message().contains("swapped")) {
          continue; // no release has them
        }
        assertThat(r.kind()).as(p.panel().id() + ": " + r).isEqualTo(EmptyReason.Kind.NOT_EXPOSED);
        assertThat(r.version()).as(p.panel().id() + ": " + r).isEqualTo("main");
      }
    }
  }

  /**
   * Two 1.0 pods (the unprefixed generation, NIM's vLLM names with engine_type): detected as
   * TensorRT-LLM 1.0, their model the workload's, the request panels equal the servers' counters,
   * and the panels whose families came later say which release brought them.
   */
  @Test
  void theFirstReleasesUnprefixedPageHasItsRequestPanels() {
    SimulatedFleet first = trtllmPair(b -> b.trtllmRelease10(2));
    Map<Long, Map<String, Double>> finished = finishedPerWorkload(first);
    String page = first.fleet.render(first.fleet.pods().get(0).info().name()).orElseThrow();
    assertThat(page).contains("\nrequest_success_total{").doesNotContain("trtllm_");
    DashboardService s = new DashboardService(QueryStack.of(first.backend), CATALOG);
    List<TargetInventory> targets =
        s.inventory(first.now()).filter(t -> !t.engine().equals("dcgm")).targets();
    assertThat(targets).hasSize(2);
    for (TargetInventory t : targets) {
      assertThat(t.engine()).isEqualTo("trtllm");
      assertThat(t.detection().prefix()).isEqualTo("");
      assertThat(t.detection().versions().toString()).isEqualTo("1.0");
      assertThat(t.models()).containsExactly(t.label("workload_name"));
    }
    Map<String, Double> qps =
        PanelValues.panel(first.backend, first.now(), "model.qps", 0, Filters.NONE);
    assertThat(qps).containsOnlyKeys(finished.get(first.now()).keySet());
    qps.forEach(
        (w, v) -> {
          double want =
              (finished.get(first.now()).get(w) - finished.get(first.now() - 285_000).get(w))
                  / 285.0;
          assertThat(v).as(w).isPositive().isCloseTo(want, within(want * 1e-9));
        });
    Map<String, PanelResult> rendered = new HashMap<>();
    for (PanelResult p :
        s.render(DashboardRequest.of(Filters.NONE, first.now() - 300_000, first.now()))) {
      rendered.put(p.panel().id(), p);
    }
    for (String id :
        List.of("model.e2e", "model.ttft", "pod.e2e", "pod.ttft", "pod.finish_reasons")) {
      assertThat(rendered.get(id).status()).as(id).isEqualTo(PanelResult.Status.OK);
    }
    // tokens and the scheduler gauges came with main, the KV-cache gauges with 1.3
    Map<String, String> since =
        Map.of("pod.tokens", "main", "pod.scheduler", "main", "pod.kv_usage", "1.3");
    since.forEach(
        (id, release) -> {
          PanelResult p = rendered.get(id);
          assertThat(p.status()).as(id).isEqualTo(PanelResult.Status.EMPTY);
          assertThat(p.reasons()).as(id).isNotEmpty();
          for (EmptyReason r : p.reasons()) {
            if (r.message().contains("swapped")) {
              continue; // no release has them
            }
            assertThat(r.kind()).as(id + ": " + r).isEqualTo(EmptyReason.Kind.NOT_EXPOSED);
            assertThat(r.version()).as(id + ": " + r).isEqualTo(release);
          }
        });
    // named as the release that brought it spells it, not as a product's subset
    assertThat(rendered.get("pod.tokens").reasons())
        .extracting(EmptyReason::message)
        .allMatch(m -> m.startsWith("TensorRT-LLM 1.0 does not expose"))
        .anyMatch(m -> m.contains("trtllm_prompt_tokens_total is exposed from TensorRT-LLM main"));
  }

  /**
   * Two TensorRT-LLM pods serving MODEL and OTHER and nothing else, of the release {@code release}
   * sets.
   */
  private static SimulatedFleet trtllmPair(UnaryOperator<FleetConfigBuilder> release) {
    return new SimulatedFleet(
        release
            .apply(
                FleetConfig.builder()
                    .vllmPods(0)
                    .legacyVllmPods(0)
                    .sglangPods(0)
                    .sglangGatewayPods(0)
                    .prefillDecode(false)
                    .trtllmPods(2)
                    .models(List.of(MODEL, OTHER)))
            .build(),
        false);
  }

  /** Runs {@code f} for six minutes: each workload's finished requests at every scrape. */
  private static Map<Long, Map<String, Double>> finishedPerWorkload(SimulatedFleet f) {
    Map<Long, Map<String, Double>> finished = new HashMap<>();
    f.run(
        Duration.ofMinutes(6),
        snap -> {
          Map<String, Double> at = new HashMap<>();
          for (InferencePod p : f.fleet.pods()) {
            at.put(p.info().workloadName(), (double) ((TrtllmPod) p).metrics().finished());
          }
          finished.put(snap.timeMillis(), at);
        });
    return finished;
  }
}
