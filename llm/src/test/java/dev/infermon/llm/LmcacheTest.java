package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import dev.infermon.simulator.RouterKind;
import dev.infermon.simulator.vllm.VllmLmcache;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The KV-offload (LMCache) panels against the simulator's own LMCache counts: three current vLLM
 * pods of one model, tensor parallel 2, the first two with LMCache; the third has none, so its
 * share of the panels is absent and a fleet without LMCache says why.
 */
class LmcacheTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final FleetConfigBuilder SMALL =
      FleetConfig.builder()
          .vllmPods(3)
          .dataParallelPods(0)
          .legacyVllmPods(0)
          .sglangPods(0)
          .sglangGatewayPods(0)
          .prefillDecode(false)
          .models(List.of(MODEL));

  private static SimulatedFleet fleet;
  private static DashboardService service;

  /** Per pod: [lookup tokens, lookup hits, requested, retrieved, stored], one worker's count. */
  private static VllmTruth truth;

  @BeforeAll
  static void run() {
    fleet = new SimulatedFleet(SMALL.lmcachePods(2).build(), false);
    truth =
        new VllmTruth(
            fleet,
            Duration.ofMinutes(6),
            m -> {
              VllmLmcache l = m.lmcache();
              return l == null
                  ? new double[5]
                  : new double[] {
                    l.lookupTokens(),
                    l.lookupHits(),
                    l.requestedTokens(),
                    l.retrievedTokens(),
                    l.storedTokens()
                  };
            });
    service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
  }

  private static Map<String, Double> panelNow(String panelId, int query) {
    return PanelValues.panel(fleet.backend, fleet.now(), panelId, query, Filters.NONE);
  }

  private static Map<String, PanelResult> render(DashboardService s, SimulatedFleet f) {
    Map<String, PanelResult> out = new HashMap<>();
    for (PanelResult p : s.render(DashboardRequest.of(Filters.NONE, f.now() - 300_000, f.now()))) {
      out.put(p.panel().id(), p);
    }
    return out;
  }

  private static List<String> lmcachePods() {
    return truth.pods().stream().filter(p -> truth.at(p)[0] > 0).sorted().toList();
  }

  @Test
  void twoPodsRunLmcacheAndCountedTraffic() {
    assertThat(lmcachePods()).hasSize(2);
    for (String pod : lmcachePods()) {
      double[] d = truth.delta(pod);
      assertThat(d[1]).as(pod + " lookup hits").isPositive().isLessThanOrEqualTo(d[0]);
      assertThat(d[3]).as(pod + " retrieved").isPositive().isLessThanOrEqualTo(d[2]);
      assertThat(d[4]).as(pod + " stored").isPositive();
    }
  }

  @Test
  void podHitRatesAreTheCounterRatiosOfOneWorker() {
    Map<String, Double> lookup = panelNow("pod.kv_offload_hit_rate", 0);
    Map<String, Double> retrieve = panelNow("pod.kv_offload_hit_rate", 1);
    assertThat(lookup.keySet()).containsExactlyInAnyOrderElementsOf(lmcachePods());
    for (String pod : lmcachePods()) {
      double[] d = truth.delta(pod);
      assertThat(lookup.get(pod)).as(pod).isCloseTo(d[1] / d[0], within(1e-9));
      assertThat(retrieve.get(pod)).as(pod).isCloseTo(d[3] / d[2], within(1e-9));
    }
  }

  @Test
  void podTokensPerSecondAreOneWorkersNotTheSumOfWorkers() {
    Map<String, Double> stored = panelNow("pod.kv_offload_tokens", 0);
    Map<String, Double> retrieved = panelNow("pod.kv_offload_tokens", 1);
    for (String pod : lmcachePods()) {
      double[] d = truth.delta(pod);
      assertThat(stored.get(pod)).as(pod).isCloseTo(d[4] / 285.0, within(d[4] / 285.0 * 1e-9));
      assertThat(retrieved.get(pod)).as(pod).isCloseTo(d[3] / 285.0, within(d[3] / 285.0 * 1e-9));
    }
  }

  @Test
  void modelHitRateSumsThePodsBeforeDividingUnderVllmsModelName() {
    double[] d = truth.total();
    Map<String, Double> lookup = panelNow("model.kv_offload_hit_rate", 0);
    assertThat(lookup).containsOnlyKeys(MODEL);
    assertThat(lookup.get(MODEL)).isCloseTo(d[1] / d[0], within(1e-9));
    assertThat(panelNow("model.kv_offload_hit_rate", 1).get(MODEL))
        .isCloseTo(d[3] / d[2], within(1e-9));
  }

  @Test
  void withLmcacheThePanelsHaveData() {
    Map<String, PanelResult> panels = render(service, fleet);
    for (String id :
        List.of("model.kv_offload_hit_rate", "pod.kv_offload_hit_rate", "pod.kv_offload_tokens")) {
      assertThat(panels.get(id).status())
          .as(id + " " + panels.get(id).reasons())
          .isNotEqualTo(PanelResult.Status.EMPTY);
      // the third pod has no LMCache, and that is the only reason: the two pods' data is not
      // read as LMCache's traffic left out by a filter (LMCache has no targets of its own)
      assertThat(panels.get(id).reasons())
          .as(id)
          .extracting(EmptyReason::kind)
          .isNotEmpty()
          .containsOnly(EmptyReason.Kind.BEHIND_FLAG);
    }
  }

  @Test
  void withoutLmcacheThePanelsSayNoLmcacheOnThesePods() {
    SimulatedFleet off = new SimulatedFleet(SMALL.lmcachePods(0).build(), false);
    off.run(Duration.ofMinutes(3));
    Map<String, PanelResult> panels =
        render(new DashboardService(QueryStack.of(off.backend), CATALOG), off);
    for (String id :
        List.of("model.kv_offload_hit_rate", "pod.kv_offload_hit_rate", "pod.kv_offload_tokens")) {
      PanelResult p = panels.get(id);
      assertThat(p.status()).as(id).isEqualTo(PanelResult.Status.EMPTY);
      assertThat(p.reasons())
          .as(id)
          .isNotEmpty()
          .allSatisfy(
              r -> {
                assertThat(r.kind()).isEqualTo(EmptyReason.Kind.BEHIND_FLAG);
                assertThat(r.engine()).isEqualTo("lmcache");
                assertThat(r.message()).startsWith("no LMCache on these vLLM pods");
                assertThat(r.flag())
                    .contains("LMCacheConnectorV1")
                    .contains("PROMETHEUS_MULTIPROC_DIR");
              });
    }
  }

  /**
   * NVIDIA Dynamo's vLLM workers (the pods behind {@code --router dynamo}) without LMCache: their
   * reason names the worker's own switches, not vllm serve's, each with the Dynamo releases whose
   * docs have it, since a worker's page does not tell its Dynamo release.
   */
  @Test
  void dynamoWorkersWithoutLmcacheNameTheWorkersSwitches() {
    // a builder of its own: SMALL is shared by the other tests
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(MODEL))
            .lmcachePods(0)
            .router(RouterKind.DYNAMO)
            .build();
    SimulatedFleet off = new SimulatedFleet(config, false);
    off.run(Duration.ofMinutes(3));
    PanelResult p =
        render(new DashboardService(QueryStack.of(off.backend), CATALOG), off)
            .get("pod.kv_offload_hit_rate");
    assertThat(p.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.reasons())
        .as("%s", p.reasons())
        .isNotEmpty()
        .allSatisfy(
            r -> {
              assertThat(r.kind()).isEqualTo(EmptyReason.Kind.BEHIND_FLAG);
              assertThat(r.message())
                  .startsWith("no LMCache on these NVIDIA Dynamo vLLM workers")
                  .contains("ENABLE_LMCACHE=1 (Dynamo v0.7.0, v0.7.1)")
                  .contains("--connector lmcache (v0.8.0");
              assertThat(r.flag()).contains("python -m dynamo.vllm");
            });
  }

  @Test
  void everyLmcacheFamilyOfTheSimulatedPageIsCatalogued() {
    EngineCatalog lmc = CATALOG.engine("lmcache");
    Vector v =
        (Vector) fleet.backend.instantQuery("{__name__=~\"lmcache:.+\"}", fleet.now()).value();
    TreeSet<String> names = new TreeSet<>();
    for (Sample s : v.samples()) {
      names.add(s.labels().get("__name__"));
      assertThat(s.labels().get("role")).isEqualTo("worker");
      assertThat(s.labels().get("worker_id")).isIn("0", "1");
      assertThat(s.labels().get("model_name")).isEqualTo("/mnt/models/" + MODEL);
    }
    assertThat(names).hasSizeGreaterThan(30);
    for (String n : names) {
      String base = n.substring("lmcache:".length());
      boolean known =
          !lmc.entries(base).isEmpty()
              || List.of("_bucket", "_sum", "_count").stream()
                  .anyMatch(
                      suf ->
                          base.endsWith(suf)
                              && !lmc.entries(base.substring(0, base.length() - suf.length()))
                                  .isEmpty());
      assertThat(known).as(n).isTrue();
    }
  }
}
