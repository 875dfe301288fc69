package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.SglangPod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.sglang.SglangMetrics;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.testing.ReplayScrape;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The KV-cache capacity panels against the simulator's engine configuration (vLLM's {@code
 * cache_config_info} labels on current, data-parallel, 0.11 and 0.4.3 pages; SGLang's {@code
 * max_total_num_tokens} and, in pages, its {@code cache_config_info} num_pages label) and against
 * the numbers written in the real captures' {@code cache_config_info} lines.
 */
class KvCapacityTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final String OTHER = "Qwen/Qwen2.5-32B-Instruct";

  private static SimulatedFleet fleet;

  /** Per pod: {tokens, blocks} summed over its engines (SGLang: pages of page_size tokens). */
  private static final Map<String, long[]> truth = new HashMap<>();

  private static final Map<String, String> modelOf = new HashMap<>();

  private static final Map<String, Integer> pageSizes = new HashMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(1)
            .legacyVllmPods(1)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(MODEL, OTHER))
            .build();
    fleet = new SimulatedFleet(config, false);
    fleet.run(Duration.ofMinutes(3));
    for (InferencePod p : fleet.fleet.pods()) {
      long[] t = new long[2];
      if (p instanceof SglangPod) {
        SglangMetrics.Gauges g = ((SglangPod) p).metrics().gauges();
        t[0] = g.maxTotalTokens();
        t[1] = g.numPages();
        pageSizes.put(p.info().name(), g.pageSize());
      } else if (p instanceof VllmPod) {
        for (EngineModel e : p.engines()) {
          t[0] += e.params().kvCapacityTokens();
          t[1] += e.params().numGpuBlocks();
        }
      } else {
        continue;
      }
      truth.put(p.info().name(), t);
      modelOf.put(p.info().name(), p.profile().name());
    }
  }

  private static Map<String, Double> fleetPanel(String id, int query, Filters filters) {
    return PanelValues.panel(fleet.backend, fleet.now(), id, query, filters);
  }

  @Test
  void podTokensAreEveryEnginesBlocksTimesBlockSize() {
    Map<String, Double> tokens = fleetPanel("pod.kv_capacity", 0, Filters.NONE);
    assertThat(tokens.keySet()).isEqualTo(truth.keySet());
    truth.forEach(
        (pod, t) -> {
          assertThat(t[0]).as(pod).isPositive();
          assertThat(tokens.get(pod)).as(pod).isEqualTo((double) t[0]);
        });
  }

  @Test
  void podBlocksAreEveryEnginesBlocks() {
    Map<String, Double> blocks = fleetPanel("pod.kv_capacity", 1, Filters.NONE);
    truth.forEach(
        (pod, t) -> {
          assertThat(t[1]).as(pod).isPositive();
          assertThat(blocks.get(pod)).as(pod).isEqualTo((double) t[1]);
        });
  }

  @Test
  void sglangPagesTimesPageSizeAreItsTokens() {
    // cache_config_info{num_pages, page_size} (0.5.9-0.5.10) read as numbers: the page count is
    // SGLang's max_total_num_tokens // page_size, so pages x page size give the tokens back
    Map<String, Double> tokens = fleetPanel("pod.kv_capacity", 0, Filters.NONE);
    Map<String, Double> blocks = fleetPanel("pod.kv_capacity", 1, Filters.NONE);
    assertThat(pageSizes).isNotEmpty();
    pageSizes.forEach(
        (pod, size) -> {
          assertThat(size).as(pod).isGreaterThan(1);
          assertThat(blocks.get(pod) * size).as(pod).isEqualTo(tokens.get(pod));
        });
  }

  @Test
  void aDataParallelPodHasBothEnginesCaches() {
    String dp = truth.keySet().stream().filter(n -> n.contains("-dp-")).findFirst().orElseThrow();
    InferencePod pod =
        fleet.fleet.pods().stream().filter(p -> p.info().name().equals(dp)).findFirst().get();
    assertThat(pod.engines()).hasSize(2);
    assertThat(fleetPanel("pod.kv_capacity", 0, Filters.NONE).get(dp))
        .isEqualTo(2.0 * pod.engines().get(0).params().kvCapacityTokens());
  }

  @Test
  void theModelSumsItsPodsAlthoughCacheConfigInfoHasNoModelName() {
    Map<String, Double> tokens = fleetPanel("model.kv_capacity", 0, Filters.NONE);
    Map<String, Double> expected = new HashMap<>();
    truth.forEach((pod, t) -> expected.merge(modelOf.get(pod), (double) t[0], Double::sum));
    assertThat(tokens).isEqualTo(expected);
  }

  @Test
  void aModelFilterKeepsOnlyThatModelsPods() {
    Filters only = Filters.of(Map.of("model_name", OTHER));
    Map<String, Double> pods = fleetPanel("pod.kv_capacity", 0, only);
    assertThat(pods).isNotEmpty();
    assertThat(pods.keySet()).allSatisfy(pod -> assertThat(modelOf.get(pod)).isEqualTo(OTHER));
    assertThat(pods.size())
        .isEqualTo((int) modelOf.values().stream().filter(OTHER::equals).count());
    assertThat(fleetPanel("model.kv_capacity", 0, only)).containsOnlyKeys(OTHER);
  }

  @ParameterizedTest
  @CsvSource({"model.kv_capacity", "pod.kv_capacity"})
  void thePanelsHaveData(String id) {
    DashboardService s = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
    PanelResult r =
        s.render(DashboardRequest.of(Filters.NONE, fleet.now() - 300_000, fleet.now())).stream()
            .filter(p -> p.panel().id().equals(id))
            .findFirst()
            .orElseThrow();
    // every simulated engine writes both tokens and blocks (SGLang ≈0.5.9: pages)
    assertThat(r.status()).as(id).isEqualTo(PanelResult.Status.OK);
    assertThat(r.queries().get(0).series()).as(id).isNotEmpty();
    // the 0.11 pod has no kv_cache_size_tokens: its series drop out without a PromQL warning
    assertThat(r.queries()).allSatisfy(q -> assertThat(q.warnings()).as(id).isEmpty());
  }

  /** Blocks and tokens written in each capture's cache_config_info line. */
  @ParameterizedTest
  @CsvSource({
    "vllm-0.4.3.txt, 7281, 116496",
    "vllm-0.11.x-idle.txt, 2452, 39232",
    "vllm-0.2x-2026-09-20_qwen2.5-1.5b_mfu_sleep_created.txt, 20184, 322944",
    "vllm-v0-ray2.32-serve_rayprefix.txt, 7281, 116496"
  })
  void realCapturesShowTheirConfiguredCapacity(String capture, long blocks, long tokens) {
    MemoryStorage storage = new MemoryStorage();
    long start = SimulatedFleet.START;
    ReplayFleet replay =
        ReplayFleet.of(List.of(Captures.get(capture).target("pod", "captured-0")), start);
    long end = start + Duration.ofMinutes(2).toMillis();
    new ReplayScrape(storage, true).run(replay, start, end);
    QueryBackend backend = new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
    assertThat(PanelValues.panel(backend, end, "pod.kv_capacity", 0, Filters.NONE))
        .containsExactly(Map.entry("captured-0", (double) tokens));
    assertThat(PanelValues.panel(backend, end, "pod.kv_capacity", 1, Filters.NONE))
        .containsExactly(Map.entry("captured-0", (double) blocks));
  }
}
