package dev.infermon.server.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.ConfigLoader;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Level;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.Query;
import dev.infermon.llm.signals.Signal;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.RouterKind;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.http.InventoryFormats;
import dev.infermon.tsdb.Tsdb;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mixed fleet of {@code infermon demo --engines all} (every simulated engine, TensorRT-LLM on
 * its current release, on 1.3, whose page names no model and lacks the later families, and on 1.0,
 * the five request families unprefixed (no KV-cache gauges, no speculative decoding), NVIDIA NIM
 * read as vLLM in its unprefixed spelling (its column's reasons name vLLM; NIM's fixed subset
 * decides which signals it maps), llm-d's endpoint picker in front of the vLLM pods and the vLLM
 * prefill/decode pair, SGLang's model gateway in front of the SGLang pods and, with its PD router,
 * the SGLang pair, and an NVIDIA Dynamo deployment of its own: two vLLM workers behind Dynamo's
 * frontend, labelled as discovery labels the operator's pods (no backend, role worker; the frontend
 * backend dynamo, role frontend) and serving a model no other pod serves, dcgm-exporter per node),
 * half an hour backfilled through the scrape pipeline into a TSDB and rendered on the embedded
 * engine, one engine at a time (the dashboard's backend filter; the Dynamo deployment's, its
 * workers having no backend, by its model). The Dynamo frontend, whose series are per model only,
 * must not show in the other engines' router level, nor its lacks in their reasons. The table is
 * the spec: per panel and engine, {@code data}, the reason the engine's view is empty ({@code
 * KIND}, naming the column's engine, or {@code KIND:engine} naming another, {@code KIND:} naming
 * none), or {@code data+KIND} when it has data from some pods and the reason for the rest. Each
 * cell is checked against the catalog too: data only where the engine maps every signal of some
 * query of the panel, NOT_EXPOSED where it maps no query's, and where it maps every query's, no
 * NOT_EXPOSED but for another release, a family created on first use that a page which served
 * requests lacks, or a family the engine never writes on a role's servers.
 */
class MixedFleetPanelsTest {
  private static final List<String> COLUMNS =
      List.of(
          "vllm",
          "sglang",
          "tgi",
          "llamacpp",
          "trtllm",
          "triton",
          "nim",
          "vllm-pd",
          "sglang-pd",
          "dynamo");

  private static final String TABLE =
      """
      panel                                | vllm                     | sglang                 | tgi                    | llamacpp         | trtllm                      | triton                      | nim              | vllm-pd             | sglang-pd        | dynamo
      model.qps                            | data                     | data                   | data                   | NOT_EXPOSED      | data                        | data                        | data             | data                | data             | data
      model.success_rate                   | data                     | data                   | data                   | NOT_EXPOSED      | data+NOT_EXPOSED            | data                        | data             | data                | data             | data
      model.e2e                            | data                     | data                   | data                   | NOT_EXPOSED      | data                        | NOT_EXPOSED                 | data             | data                | data             | data
      model.tokens                         | data+NOT_EXPOSED         | data                   | data+NOT_EXPOSED       | data+NOT_EXPOSED | data+NOT_EXPOSED            | NOT_EXPOSED                 | data+NOT_EXPOSED | data                | data             | data
      model.tokens_per_gpu                 | data                     | data                   | data                   | data             | data+NOT_EXPOSED            | NOT_EXPOSED                 | data             | data                | data             | data
      model.energy_per_token               | data                     | data                   | data                   | data             | data+NOT_EXPOSED            | NOT_EXPOSED                 | data             | data                | data             | data
      model.prompt_length                  | data                     | data                   | data                   | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | data             | data                | data             | data
      model.generation_length              | data                     | data                   | data                   | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | data             | data                | data             | data
      model.prompt_length_heatmap          | data                     | data                   | data                   | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | data             | data                | data             | data
      model.generation_length_heatmap      | data                     | data                   | data                   | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | data             | data                | data             | data
      model.ttft                           | data                     | data                   | NOT_EXPOSED            | NOT_EXPOSED      | data                        | NOT_EXPOSED                 | data             | data                | data+NOT_EXPOSED | data
      model.tpot                           | data                     | data+NOT_EXPOSED       | data+NOT_EXPOSED       | NOT_EXPOSED      | data+NOT_EXPOSED            | NOT_EXPOSED                 | data+NOT_EXPOSED | data                | data+NOT_EXPOSED | data
      model.decode_per_token               | data                     | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | NOT_EXPOSED      | data
      model.prefix_cache_hit_rate          | data                     | data                   | NOT_EXPOSED            | NOT_EXPOSED      | data+NOT_EXPOSED            | NOT_EXPOSED                 | NOT_EXPOSED      | data                | data             | data
      model.kv_offload_hit_rate            | data+BEHIND_FLAG:lmcache | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG:lmcache | NOT_EXPOSED      | BEHIND_FLAG:lmcache
      model.kv_capacity                    | data                     | data                   | NOT_EXPOSED            | NOT_EXPOSED      | data+NOT_EXPOSED            | data+NOT_EXPOSED            | NOT_EXPOSED      | data                | data             | data
      model.spec_acceptance                | BEHIND_FLAG              | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | BEHIND_FLAG+NOT_EXPOSED     | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG         | NOT_EXPOSED      | BEHIND_FLAG
      model.spec_acceptance_length         | BEHIND_FLAG              | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | BEHIND_FLAG+NOT_EXPOSED     | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG         | NOT_EXPOSED      | BEHIND_FLAG
      model.lora_adapters                  | BEHIND_FLAG              | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG         | NOT_EXPOSED      | BEHIND_FLAG
      model.lora_slots                     | BEHIND_FLAG              | BEHIND_FLAG            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG         | BEHIND_FLAG      | BEHIND_FLAG
      pod.e2e                              | data                     | data                   | data                   | NOT_EXPOSED      | data                        | NOT_EXPOSED                 | data             | data                | data             | data
      pod.tokens                           | data                     | data                   | data                   | data             | data+NOT_EXPOSED            | NOT_EXPOSED                 | data             | data                | data             | data
      pod.ttft                             | data                     | data                   | NOT_EXPOSED            | NOT_EXPOSED      | data                        | NOT_EXPOSED                 | data             | data                | data+NOT_EXPOSED | data
      pod.tpot                             | data                     | data+NOT_EXPOSED       | data+NOT_EXPOSED       | NOT_EXPOSED      | data+NOT_EXPOSED            | NOT_EXPOSED                 | data+NOT_EXPOSED | data                | data+NOT_EXPOSED | data
      pod.decode_per_token                 | data                     | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | NOT_EXPOSED      | data
      pod.kv_usage                         | data                     | data                   | NOT_EXPOSED            | REMOVED          | data+NOT_EXPOSED            | data                        | data             | data                | data             | data
      pod.kv_capacity                      | data                     | data                   | NOT_EXPOSED            | NOT_EXPOSED      | data+NOT_EXPOSED            | data+NOT_EXPOSED            | NOT_EXPOSED      | data                | data             | data
      pod.scheduler                        | data                     | data+NOT_EXPOSED       | data+NOT_EXPOSED       | data+NOT_EXPOSED | data+NOT_EXPOSED            | data+NOT_EXPOSED            | data+NOT_EXPOSED | data                | data+NOT_EXPOSED | data
      pod.waiting_by_reason                | data+NOT_EXPOSED         | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | NOT_EXPOSED      | data
      pod.admission_rejections             | NOT_EXPOSED              | NOT_EXPOSED            | NO_TRAFFIC+NOT_EXPOSED | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | NOT_EXPOSED         | NOT_EXPOSED      | NOT_EXPOSED
      pod.finish_reasons                   | data                     | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | data                        | NOT_EXPOSED                 | data             | data                | NOT_EXPOSED      | data
      pod.queue_time                       | data                     | data                   | data                   | NOT_EXPOSED      | data                        | NOT_EXPOSED                 | NOT_EXPOSED      | data                | data             | data
      pod.phases                           | data                     | NO_TRAFFIC+NOT_EXPOSED | NOT_EXPOSED            | NOT_EXPOSED      | data+NOT_EXPOSED            | NOT_EXPOSED                 | NOT_EXPOSED      | data                | data+NOT_EXPOSED | data
      pod.preemptions                      | data                     | NO_TRAFFIC             | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | NO_TRAFFIC       | data
      pod.prefix_cache_hit_rate            | data                     | data                   | NOT_EXPOSED            | NOT_EXPOSED      | data+NOT_EXPOSED            | NOT_EXPOSED                 | NOT_EXPOSED      | data                | data             | data
      pod.kv_offload_hit_rate              | data+BEHIND_FLAG:lmcache | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG:lmcache | NOT_EXPOSED      | BEHIND_FLAG:lmcache
      pod.kv_offload_tokens                | data+BEHIND_FLAG:lmcache | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG:lmcache | NOT_EXPOSED      | BEHIND_FLAG:lmcache
      pod.spec_acceptance                  | BEHIND_FLAG              | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | BEHIND_FLAG+NOT_EXPOSED     | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG         | NOT_EXPOSED      | BEHIND_FLAG
      pod.spec_drafts                      | BEHIND_FLAG              | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED+BEHIND_FLAG     | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG         | NOT_EXPOSED      | BEHIND_FLAG
      pod.sleep                            | data+NOT_EXPOSED         | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | NOT_EXPOSED      | data
      pod.lora_adapters                    | BEHIND_FLAG              | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG         | NOT_EXPOSED      | BEHIND_FLAG
      pod.lora_slots                       | BEHIND_FLAG              | BEHIND_FLAG            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG         | BEHIND_FLAG      | BEHIND_FLAG
      pod.energy_per_token                 | data                     | data                   | data                   | data             | data+NOT_EXPOSED            | NOT_EXPOSED                 | data             | data                | data             | data
      pod.kv_block_residency               | BEHIND_FLAG+NOT_EXPOSED  | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG         | NOT_EXPOSED      | BEHIND_FLAG
      pod.spec_acceptance_by_position      | BEHIND_FLAG              | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | BEHIND_FLAG         | NOT_EXPOSED      | BEHIND_FLAG
      gpu.tensor_active                    | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      gpu.utilization                      | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      gpu.sm_active                        | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      gpu.copy_utilization                 | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      gpu.memory_used                      | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      gpu.dram_active                      | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      gpu.nvlink_traffic                   | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      causal_model.kv_usage                | data                     | data                   | NOT_EXPOSED            | REMOVED          | data+NOT_EXPOSED            | data                        | data             | data                | data             | data
      causal_model.preemptions             | data                     | NO_TRAFFIC             | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | NO_TRAFFIC       | data
      causal_model.queue                   | data                     | data                   | data                   | data             | data+NOT_EXPOSED            | data                        | data             | data                | data             | data
      causal_model.admission_rejections    | NOT_EXPOSED              | NOT_EXPOSED            | NO_TRAFFIC             | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | NOT_EXPOSED         | NOT_EXPOSED      | NOT_EXPOSED
      causal_model.ttft_p95                | data                     | data                   | NOT_EXPOSED            | NOT_EXPOSED      | data                        | NOT_EXPOSED                 | data             | data                | data+NOT_EXPOSED | data
      causal_model.gpu_sm                  | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      causal_model.gpu_memory              | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      causal_pod.kv_usage                  | data                     | data                   | NOT_EXPOSED            | REMOVED          | data+NOT_EXPOSED            | data                        | data             | data                | data             | data
      causal_pod.preemptions               | data                     | NO_TRAFFIC             | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | NO_TRAFFIC       | data
      causal_pod.queue                     | data                     | data                   | data                   | data             | data+NOT_EXPOSED            | data                        | data             | data                | data             | data
      causal_pod.admission_rejections      | NOT_EXPOSED              | NOT_EXPOSED            | NO_TRAFFIC             | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | NOT_EXPOSED         | NOT_EXPOSED      | NOT_EXPOSED
      causal_pod.ttft_p95                  | data                     | data                   | NOT_EXPOSED            | NOT_EXPOSED      | data                        | NOT_EXPOSED                 | data             | data                | data+NOT_EXPOSED | data
      causal_pod.gpu_sm                    | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      causal_pod.gpu_memory                | data                     | data                   | data                   | data             | data                        | data                        | data             | data                | data             | data
      causal_pod.sleep                     | data+NOT_EXPOSED         | NOT_EXPOSED            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | NOT_EXPOSED      | data
      pd.ttft_user                         | NO_TARGETS:              | NO_TARGETS:            | NO_TARGETS:            | NO_TARGETS:      | NO_TARGETS:                 | NO_TARGETS:                 | NO_TARGETS:      | data                | data             | NO_TARGETS:
      pd.ttft_prefill                      | NO_TARGETS:              | NO_TARGETS:            | NO_TARGETS:            | NO_TARGETS:      | NO_TARGETS:                 | NO_TARGETS:                 | NO_TARGETS:      | data                | data+NOT_EXPOSED | NO_TARGETS:
      pd.running_by_role                   | NO_TARGETS:              | NO_TARGETS:            | NO_TARGETS:            | NO_TARGETS:      | NO_TARGETS:                 | NO_TARGETS:                 | NO_TARGETS:      | data                | data             | NO_TARGETS:
      pd.tokens_by_role                    | NO_TARGETS:              | NO_TARGETS:            | NO_TARGETS:            | NO_TARGETS:      | NO_TARGETS:                 | NO_TARGETS:                 | NO_TARGETS:      | data                | data             | NO_TARGETS:
      pd.kv_transfer_bytes                 | NO_TARGETS:              | NO_TARGETS:            | NO_TARGETS:            | NO_TARGETS:      | NO_TARGETS:                 | NO_TARGETS:                 | NO_TARGETS:      | data                | NOT_EXPOSED      | NO_TARGETS:
      pd.kv_transfer_time                  | NO_TARGETS:              | NO_TARGETS:            | NO_TARGETS:            | NO_TARGETS:      | NO_TARGETS:                 | NO_TARGETS:                 | NO_TARGETS:      | data                | NOT_EXPOSED      | NO_TARGETS:
      pd.kv_transfer_failures              | NO_TARGETS:              | NO_TARGETS:            | NO_TARGETS:            | NO_TARGETS:      | NO_TARGETS:                 | NO_TARGETS:                 | NO_TARGETS:      | data                | NOT_EXPOSED      | NO_TARGETS:
      pd.ttft_router                       | NO_TARGETS:              | NO_TARGETS:            | NO_TARGETS:            | NO_TARGETS:      | NO_TARGETS:                 | NO_TARGETS:                 | NO_TARGETS:      | data                | data             | NO_TARGETS:
      efficiency.tokens_per_gpu_second     | data                     | data                   | data                   | data             | data+NOT_EXPOSED            | NOT_EXPOSED                 | data             | data                | data             | data
      efficiency.idle_gpus                 | data                     | data                   | data                   | data             | data+NOT_EXPOSED            | data                        | data             | data                | data             | data
      efficiency.mfu                       | data+NOT_EXPOSED         | BEHIND_FLAG            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | BEHIND_FLAG      | data
      efficiency.cost_per_million_tokens   | NOT_CONFIGURED:          | NOT_CONFIGURED:        | NOT_CONFIGURED:        | NOT_CONFIGURED:  | NOT_CONFIGURED:+NOT_EXPOSED | NOT_CONFIGURED:+NOT_EXPOSED | NOT_CONFIGURED:  | NOT_CONFIGURED:     | NOT_CONFIGURED:  | NOT_CONFIGURED:
      efficiency_pod.tokens_per_gpu_second | data                     | data                   | data                   | data             | data+NOT_EXPOSED            | NOT_EXPOSED                 | data             | data                | data             | data
      efficiency_pod.idle_gpus             | data                     | data                   | data                   | data             | data+NOT_EXPOSED            | data                        | data             | data                | data             | data
      efficiency_pod.flops                 | data+NOT_EXPOSED         | BEHIND_FLAG            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | BEHIND_FLAG      | data
      efficiency_pod.mfu                   | data+NOT_EXPOSED         | BEHIND_FLAG            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | BEHIND_FLAG      | data
      efficiency_pod.mbu                   | data+NOT_EXPOSED         | BEHIND_FLAG            | NOT_EXPOSED            | NOT_EXPOSED      | NOT_EXPOSED                 | NOT_EXPOSED                 | NOT_EXPOSED      | data                | BEHIND_FLAG      | data
      router.routed                        | data                     | NOT_EXPOSED:smg        | NO_ROUTER:             | NO_ROUTER:       | NO_ROUTER:                  | NO_ROUTER:                  | NO_ROUTER:       | data                | NOT_EXPOSED:smg  | NOT_EXPOSED:dynamo
      router.in_flight                     | NOT_EXPOSED:llm-d        | data                   | NO_ROUTER:             | NO_ROUTER:       | NO_ROUTER:                  | NO_ROUTER:                  | NO_ROUTER:       | NOT_EXPOSED:llm-d   | data             | data
      router.queue                         | data                     | NOT_EXPOSED:smg        | NO_ROUTER:             | NO_ROUTER:       | NO_ROUTER:                  | NO_ROUTER:                  | NO_ROUTER:       | data                | NOT_EXPOSED:smg  | data
      router.decisions                     | data                     | data                   | NO_ROUTER:             | NO_ROUTER:       | NO_ROUTER:                  | NO_ROUTER:                  | NO_ROUTER:       | data                | data             | NOT_EXPOSED:dynamo
      router.latency                       | data                     | data                   | NO_ROUTER:             | NO_ROUTER:       | NO_ROUTER:                  | NO_ROUTER:                  | NO_ROUTER:       | data                | data             | data
      router.ttft                          | data                     | NOT_EXPOSED:smg        | NO_ROUTER:             | NO_ROUTER:       | NO_ROUTER:                  | NO_ROUTER:                  | NO_ROUTER:       | data                | data             | data
      """;

  private static final long T0 = 1_790_078_400_000L;
  private static final long END = T0 + Duration.ofMinutes(30).toMillis();

  @TempDir static Path dir;
  private static Tsdb tsdb;
  private static Fleet fleet;
  private static DashboardService service;
  private static final Map<String, Map<String, PanelResult>> byColumn = new HashMap<>();

  /** The fleet {@code infermon demo --engines all} runs (DemoCommandTest checks it is the same). */
  static FleetConfig mixedFleet() {
    return FleetConfig.builder()
        .engines(Backend.engines())
        .routers(List.of(RouterKind.LLM_D, RouterKind.SMG, RouterKind.DYNAMO))
        .build();
  }

  @BeforeAll
  static void backfillAndRender() throws Exception {
    fleet = Fleet.create(mixedFleet(), T0);
    tsdb = Tsdb.open(dir.resolve("data"));
    try (FleetServer server =
        FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, true))) {
      String yaml =
          InventoryFormats.prometheusYaml(
              fleet.inventory(), server::hostPort, server::metricsPath, 15);
      List<ScrapeConfig> configs = ConfigLoader.create().parse(yaml, "fleet.yml").scrapeConfigs();
      new FleetBackfill(
              fleet,
              server,
              configs,
              tsdb,
              Duration.ofSeconds(15),
              new PrintWriter(Writer.nullWriter()))
          .run(END, () -> 0);
    }
    DashboardService s =
        new DashboardService(
            new EmbeddedQueryBackend(tsdb, new Engine(EngineOptions.DEFAULTS)), Catalog.builtIn());
    service = s;
    for (String c : COLUMNS) {
      Map<String, PanelResult> panels = new LinkedHashMap<>();
      Filters f = Filters.of(filter(c));
      for (PanelResult p : s.render(DashboardRequest.of(f, END - 600_000, END))) {
        panels.put(p.panel().id(), p);
      }
      byColumn.put(c, panels);
    }
  }

  @AfterAll
  static void close() {
    if (tsdb != null) {
      tsdb.close();
    }
  }

  /**
   * The dashboard filter of a column: the engine's {@code backend}; the Dynamo deployment, whose
   * workers discovery gives no backend, by the model it serves.
   */
  private static Map<String, String> filter(String column) {
    return column.equals("dynamo")
        ? Map.of("model_name", FleetConfig.DYNAMO_MODEL)
        : Map.of("backend", column);
  }

  private static Map<String, List<String>> table() {
    Map<String, List<String>> rows = new LinkedHashMap<>();
    List<String> lines = List.of(TABLE.strip().split("\n"));
    assertThat(List.of(lines.get(0).split("\\s*\\|\\s*")).subList(1, COLUMNS.size() + 1))
        .as("the header")
        .isEqualTo(COLUMNS);
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split("\\|");
      List<String> values = new ArrayList<>();
      for (int i = 1; i < cells.length; i++) {
        values.add(cells[i].strip());
      }
      assertThat(values).as(line).hasSize(COLUMNS.size());
      assertThat(rows.put(cells[0].strip(), values)).as("twice: " + cells[0]).isNull();
    }
    return rows;
  }

  @Test
  void theTableHasARowForEveryPanel() {
    List<String> ids = Dashboards.standard().stream().map(Panel::id).toList();
    assertThat(table().keySet()).containsExactlyInAnyOrderElementsOf(ids);
  }

  /**
   * Unfiltered, without prices no query of the cost panel runs: it says so, and guesses nothing of
   * a query that selects no series (NO_MATCH: "a filter or a label leaves them out").
   */
  @Test
  void theUnpricedCostPanelSaysWhyAndNoGuess() {
    PanelResult p =
        service
            .render(
                new DashboardRequest(
                    Filters.NONE,
                    0.95,
                    END - 600_000,
                    END,
                    15_000,
                    "5m",
                    List.of("efficiency.cost_per_million_tokens")))
            .get(0);
    assertThat(p.reasons())
        .extracting(EmptyReason::kind)
        .contains(EmptyReason.Kind.NOT_CONFIGURED)
        .doesNotContain(EmptyReason.Kind.NO_MATCH);
  }

  @TestFactory
  Stream<DynamicTest> everyPanelPerEngine() {
    List<DynamicTest> tests = new ArrayList<>();
    table()
        .forEach(
            (id, cells) -> {
              for (int i = 0; i < COLUMNS.size(); i++) {
                String column = COLUMNS.get(i);
                String cell = cells.get(i);
                tests.add(
                    DynamicTest.dynamicTest(
                        id + " " + column + ": " + cell, () -> check(id, column, cell)));
              }
            });
    return tests.stream();
  }

  /** What one engine's view of the panel shows, in the table's notation. */
  static String actual(PanelResult p, String column) {
    List<String> parts = new ArrayList<>();
    if (p.status() != PanelResult.Status.EMPTY) {
      parts.add("data");
    }
    for (EmptyReason r : new LinkedHashSet<>(reasons(p))) {
      parts.add(r.kind() + (r.engine().equals(engineOf(column)) ? "" : ":" + r.engine()));
    }
    return String.join("+", parts);
  }

  private static List<EmptyReason> reasons(PanelResult p) {
    List<EmptyReason> out = new ArrayList<>();
    Set<String> seen = new TreeSet<>();
    for (EmptyReason r : p.reasons()) {
      if (seen.add(r.kind() + ":" + r.engine())) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * The catalog engine of a column: the prefill/decode pairs are vLLM and SGLang pods, NVIDIA NIM
   * is read as vLLM (its unprefixed spelling), the Dynamo deployment's workers run vLLM.
   */
  private static String engineOf(String column) {
    return column.equals("nim") || column.equals("dynamo") ? "vllm" : column.replace("-pd", "");
  }

  /**
   * Whether the column's engine maps signal {@code s}: for NIM, through a source whose families
   * NIM's subset serves.
   */
  private static boolean maps(Catalog catalog, String column, Signal s) {
    String from = s.kind() == Signal.Kind.GPU ? "dcgm" : engineOf(column);
    EngineCatalog e = catalog.engine(from);
    if (!column.equals("nim") || s.kind() == Signal.Kind.GPU) {
      // or a component inside the engine's process whose families are on its page (LMCache)
      return !e.sources(s).isEmpty()
          || catalog.runningIn(from).stream().anyMatch(c -> !c.sources(s).isEmpty());
    }
    NameVariant nim =
        e.variants().stream().filter(v -> v.prefix().isEmpty()).findFirst().orElseThrow();
    // a component inside vLLM's process (LMCache) maps on NIM's pods only where the component's
    // catalog does not say NIM has none of it (lmcache.yaml's absent_on)
    return e.sources(s).stream()
            .anyMatch(src -> src.metrics().stream().allMatch(m -> e.serves(nim, m)))
        || catalog.runningIn(from).stream()
            .anyMatch(c -> !c.sources(s).isEmpty() && c.absentOn(nim.product()).isEmpty());
  }

  private static void check(String id, String column, String cell) {
    PanelResult p = byColumn.get(column).get(id);
    assertThat(actual(p, column)).as(id + " for " + column + ": " + p.reasons()).isEqualTo(cell);
    if (cell.contains("data")) {
      dataComesFromTheEnginesPods(p, column);
    }
    agreesWithTheCatalog(p, column, cell);
  }

  /** Pod-level series of the engine's view name only pods of that engine, and at least one. */
  private static void dataComesFromTheEnginesPods(PanelResult p, String column) {
    if (p.panel().level() != Level.POD && p.panel().level() != Level.GPU) {
      return;
    }
    Set<String> mine = new TreeSet<>();
    for (PodInfo i : fleet.inventory()) {
      // a router-wide series (routing decisions) is the router's own: shown if it fronts the view
      boolean router =
          i.backend() == Backend.LLM_D
              || i.backend() == Backend.PRODUCTION_STACK
              || i.backend() == Backend.SMG;
      boolean dynamoWorker = column.equals("dynamo") && i.backend() == Backend.DYNAMO_WORKER;
      if (i.backend().label().equals(column) || router || dynamoWorker) {
        mine.add(i.name());
      }
    }
    Set<String> shown = new TreeSet<>();
    for (PanelResult.QueryData q : p.queries()) {
      for (PanelResult.SeriesData s : q.series()) {
        if (s.hasValues() && s.labels().containsKey("pod")) {
          shown.add(s.labels().get("pod"));
        }
      }
    }
    assertThat(shown).as(p.panel().id() + " pods for " + column).isNotEmpty().isSubsetOf(mine);
  }

  /**
   * A signal the engine has means data, or a reason that says why it is off (a flag, no traffic,
   * another release); a signal it lacks means no data from it.
   */
  private static void agreesWithTheCatalog(PanelResult p, String column, String cell) {
    Catalog catalog = Catalog.builtIn();
    String engine = engineOf(column);
    boolean some = false;
    boolean every = true;
    for (Query q : p.panel().queries()) {
      if (q.measure().signals().isEmpty()) {
        return; // a router measure: the router's catalog, not the engine's, has its signals
      }
      boolean all = true;
      for (Signal s : q.measure().signals()) {
        all &= maps(catalog, column, s);
      }
      some |= all;
      every &= all;
    }
    String id = p.panel().id();
    if (cell.contains("data")) {
      assertThat(some).as(id + ": data from " + engine + " without its signals").isTrue();
    }
    if (!some && !cell.startsWith("NO_TARGETS")) {
      assertThat(cell).as(id + ": " + engine + " maps none of its signals").contains("NOT_EXPOSED");
    }
    if (every) {
      for (EmptyReason r : p.reasons()) {
        if (r.kind() == EmptyReason.Kind.NOT_EXPOSED && r.engine().equals(engine)) {
          // the catalog has every signal: another release has it, the page lacks a family the
          // engine creates on first use though it served requests, or the engine never writes it
          // on this role's servers (SGLang's TTFT on a prefill server)
          assertThat(
                  r.version() != null
                      || r.message().contains("created on first use")
                      || r.message().contains(" is never written on a "))
              .as(id + ": " + engine + " maps every signal, so which release has them: " + r)
              .isTrue();
        }
      }
    }
  }
}
