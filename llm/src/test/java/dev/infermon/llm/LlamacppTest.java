package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.EngineDetector;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.PageFamilies;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.LlamacppPod;
import dev.infermon.simulator.llamacpp.LlamacppMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Two simulated llama-server pods (the page after #16818, {@code --metrics} on) through the scrape,
 * the inventory and the dashboard: detected as llama.cpp 2025-10, the panels it has the signal for
 * equal the servers' own counters, and the others say why they are empty, truly.
 */
class LlamacppTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final String OTHER = "Qwen/Qwen2.5-7B-Instruct";

  private static SimulatedFleet fleet;
  private static DashboardService service;

  /** Per step: pod -> [prompt tokens, generated tokens, processing, deferred]. */
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
            .llamacppPods(3)
            .models(List.of(MODEL, OTHER))
            .build();
    fleet = new SimulatedFleet(config, false);
    fleet.run(
        Duration.ofMinutes(7),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            LlamacppMetrics m = ((LlamacppPod) p).metrics();
            at.put(
                p.info().name(),
                new double[] {m.promptTokens(), m.predictedTokens(), m.processing(), m.deferred()});
          }
          truth.put(snap.timeMillis(), at);
        });
    service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
  }

  @Test
  void theSimulatedPageIsCataloguedAndDetectedAsTheReleaseAfterTheRename() throws Exception {
    String pod = fleet.fleet.pods().get(0).info().name();
    byte[] page = fleet.fleet.render(pod).orElseThrow().getBytes(StandardCharsets.UTF_8);
    Map<String, FamilyInfo> families = PageFamilies.parse(page, null);
    assertThat(CatalogCheck.problems(CATALOG, "llamacpp", "2025-10", families)).isEmpty();
    Detection d = new EngineDetector(CATALOG).detect(families);
    assertThat(d.engine()).isEqualTo("llamacpp");
    assertThat(d.prefix()).isEqualTo("llamacpp:");
    // n_tokens_max from #16818, no spec-decode counters (#26389): exactly 2025-10
    assertThat(d.versions().first().name()).isEqualTo("2025-10");
    assertThat(d.versions().last().name()).isEqualTo("2025-10");
  }

  @Test
  void theStoredInventoryNamesTheEngine() {
    Inventory inv = service.inventory(fleet.now()).filter(t -> !t.engine().equals("dcgm"));
    assertThat(inv.targets()).hasSize(3);
    for (TargetInventory t : inv.targets()) {
      assertThat(t.engine()).isEqualTo("llamacpp");
      assertThat(t.detection().versions().toString()).isEqualTo("2025-10");
      assertThat(t.label("backend")).isEqualTo("llamacpp");
    }
  }

  private static Map<String, Double> panelNow(String panelId, int query) {
    Panel p = Dashboards.panel(panelId);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            Map.of(),
            0.95,
            "5m",
            Presence.of(service.inventory(fleet.now()).families()));
    String q =
        new PromqlCompiler(CATALOG)
            .compile(p.queries().get(query).measure(), p.level(), o)
            .orElseThrow();
    Vector v = (Vector) fleet.backend.instantQuery(q, fleet.now()).value();
    String key = p.level().groupBy().get(p.level().groupBy().size() - 1);
    Map<String, Double> out = new HashMap<>();
    for (Sample s : v.samples()) {
      out.put(s.labels().get(key), s.value());
    }
    return out;
  }

  /** Truth over the window rate sees: samples in (now-5m, now], the first at now-285s. */
  private static double delta(String pod, int i) {
    return truth.get(fleet.now()).get(pod)[i] - truth.get(fleet.now() - 285_000).get(pod)[i];
  }

  @Test
  void podTokenThroughputIsTheServersCountersRate() {
    Map<String, Double> in = panelNow("pod.tokens", 0);
    Map<String, Double> out = panelNow("pod.tokens", 1);
    assertThat(in).hasSize(3);
    for (String pod : truth.get(fleet.now()).keySet()) {
      double prompt = delta(pod, 0) / 285.0;
      double generated = delta(pod, 1) / 285.0;
      assertThat(prompt).as(pod).isPositive();
      assertThat(generated).as(pod).isPositive();
      assertThat(in.get(pod)).as(pod + " in").isCloseTo(prompt, within(prompt * 1e-9));
      assertThat(out.get(pod)).as(pod + " out").isCloseTo(generated, within(generated * 1e-9));
    }
  }

  @Test
  void podSchedulerStateIsTheSlotsAndTheDeferredTasks() {
    Map<String, Double> running = panelNow("pod.scheduler", 0);
    Map<String, Double> waiting = panelNow("pod.scheduler", 1);
    for (String pod : truth.get(fleet.now()).keySet()) {
      double[] now = truth.get(fleet.now()).get(pod);
      assertThat(running.get(pod)).as(pod).isEqualTo(now[2]);
      assertThat(waiting.get(pod)).as(pod).isEqualTo(now[3]);
      assertThat(now[2]).isLessThanOrEqualTo(LlamacppPod.SLOTS);
    }
  }

  @Test
  void theModelLevelGroupsEachWorkloadsPodsUnderItsWorkloadName() {
    // the page names no model: the catalog's model_from_label makes workload_name the model
    Map<String, Double> expected = new HashMap<>();
    for (InferencePod p : fleet.fleet.pods()) {
      expected.merge(p.info().workloadName(), delta(p.info().name(), 0) / 285.0, Double::sum);
    }
    assertThat(expected).hasSize(2); // two models: one workload of two pods, one of one
    Map<String, Double> panel = panelNow("model.tokens", 0);
    assertThat(panel).containsOnlyKeys(expected.keySet());
    expected.forEach(
        (w, v) -> assertThat(panel.get(w)).as(w).isPositive().isCloseTo(v, within(v * 1e-9)));
  }

  @Test
  void thePrefillDecodeViewHasNoLlamacppBranch() {
    Panel p = Dashboards.panel("pd.running_by_role");
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            p.match(),
            0.95,
            "5m",
            Presence.of(service.inventory(fleet.now()).families()));
    // llama-server has no prefill/decode roles (catalog disaggregated: false)
    assertThat(new PromqlCompiler(CATALOG).compile(p.queries().get(0).measure(), p.level(), o))
        .isEmpty();
  }

  private static Map<String, PanelResult> render() {
    Map<String, PanelResult> byId = new HashMap<>();
    for (PanelResult p :
        service.render(DashboardRequest.of(Filters.NONE, fleet.now() - 300_000, fleet.now()))) {
      byId.put(p.panel().id(), p);
    }
    return byId;
  }

  @Test
  void panelsWithTheSignalHaveData() {
    assertThat(render().get("pod.tokens").status()).isEqualTo(PanelResult.Status.OK);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pod.scheduler|llama.cpp does not expose swapped requests in any release",
        "model.tokens|llama.cpp does not expose cached prompt tokens in any release",
      })
  void panelsWithPartOfTheSignalsSayWhichPartIsMissing(String id, String reason) {
    PanelResult p = render().get(id);
    assertThat(p.status()).as(id).isEqualTo(PanelResult.Status.PARTIAL);
    assertThat(p.reasons()).extracting(EmptyReason::message).containsExactly(reason);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pod.ttft|llama.cpp does not expose time to first token in any release",
        "pod.e2e|llama.cpp does not expose end-to-end latency in any release",
        "pod.preemptions|llama.cpp does not expose request preemptions in any release",
        "pod.queue_time|llama.cpp does not expose queue time in any release",
        "model.prefix_cache_hit_rate|llama.cpp does not expose prefix-cache hits in any release",
      })
  void signalsItNeverHadSaySo(String id, String reason) {
    PanelResult p = render().get(id);
    assertThat(p.status()).as(id).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.reasons()).extracting(EmptyReason::message).contains(reason);
    assertThat(p.reasons()).allSatisfy(r -> assertThat(r.engine()).isIn("llamacpp", "dcgm", ""));
  }

  @Test
  void kvUsageSaysTheRatioWasRemoved() {
    PanelResult p = render().get("pod.kv_usage");
    assertThat(p.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.reasons())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.kind()).isEqualTo(EmptyReason.Kind.REMOVED);
              assertThat(r.message())
                  .startsWith("llamacpp:kv_cache_usage_ratio was removed in llama.cpp 2025-05")
                  .contains("nothing replaced it")
                  .contains("llama.cpp 2025-10 has no KV-cache usage");
            });
  }

  @Test
  void aServerWithoutTheMetricsFlagIsDownAndTheReasonNamesTheFlag() {
    SimulatedFleet off =
        new SimulatedFleet(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .llamacppPods(1)
                .llamacppWithoutMetrics(1)
                .models(List.of(MODEL))
                .build(),
            false);
    off.run(Duration.ofMinutes(3));
    DashboardService s = new DashboardService(QueryStack.of(off.backend), CATALOG);
    TargetInventory t =
        s.inventory(off.now()).filter(x -> !x.engine().equals("dcgm")).targets().get(0);
    assertThat(t.up()).isFalse();
    assertThat(t.engine()).as("from its backend label").isEqualTo("llamacpp");
    PanelResult p = null;
    for (PanelResult r :
        s.render(DashboardRequest.of(Filters.NONE, off.now() - 300_000, off.now()))) {
      if (r.panel().id().equals("pod.tokens")) {
        p = r;
      }
    }
    assertThat(p.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.reasons())
        .extracting(EmptyReason::message)
        .containsExactly(
            "every llama.cpp target in scope is down: llama-server answers /metrics with HTTP 501"
                + " unless it runs with --metrics, so a server started without the flag is a"
                + " target that is down");
  }

  @Test
  void specDecodePanelsNameTheReleaseThatHasTheCounters() {
    PanelResult p = render().get("pod.spec_drafts");
    assertThat(p.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.reasons())
        .extracting(EmptyReason::message)
        .contains(
            "llama.cpp 2025-10 does not expose speculative drafts;"
                + " llamacpp:spec_decode_num_drafts_total is exposed from llama.cpp 2026-08");
  }
}
