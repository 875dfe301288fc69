package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Level;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.efficiency.Efficiency;
import dev.infermon.llm.efficiency.EfficiencyRequest;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.efficiency.Figures;
import dev.infermon.llm.efficiency.Group;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.amdgpu.AmdExporter;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A fleet of two one-GPU vLLM pods, the first on an MI300X node watched by AMD's
 * device-metrics-exporter, the second on an H100 node watched by dcgm-exporter: the GPU panels of
 * the pod and GPU levels have data for the MI300X pod as for the H100 pod, its values are the AMD
 * exporter's own readings, energy per token is each pod's joules over its tokens whichever unit its
 * exporter counts in, and what only dcgm-exporter measures says so.
 */
class AmdGpuPanelsTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final long WINDOW_MS = 300_000;
  private static final List<String> PANELS =
      List.of("gpu.utilization", "gpu.copy_utilization", "gpu.memory_used", "pod.energy_per_token");

  private static SimulatedFleet fleet;
  private static String amdPod;
  private static String nvidiaPod;

  /** Per step: pod -> {GPU joules, generated tokens}. */
  private static final Map<Long, Map<String, double[]>> TRUTH = new LinkedHashMap<>();

  private static FleetConfigBuilder config() {
    return FleetConfig.builder()
        .vllmPods(2)
        .dataParallelPods(0)
        .legacyVllmPods(0)
        .sglangPods(0)
        .sglangGatewayPods(0)
        .prefillDecode(false)
        .models(List.of("org/model-a", "org/model-b"))
        .gpusPerNode(1);
  }

  @BeforeAll
  static void run() {
    fleet = new SimulatedFleet(config().amdNodes(1).mfu(true).build(), true);
    amdPod = fleet.fleet.pods().get(0).info().name();
    nvidiaPod = fleet.fleet.pods().get(1).info().name();
    fleet.run(
        Duration.ofMinutes(8),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            double generated = 0;
            for (int i = 0; i < p.engines().size(); i++) {
              generated += ((VllmPod) p).metrics(i).generationTokens();
            }
            String pod = p.info().name();
            at.put(pod, new double[] {fleet.fleet.gpuEnergyJoules(pod), generated});
          }
          TRUTH.put(snap.timeMillis(), at);
        });
  }

  private static Map<String, PanelResult> render(SimulatedFleet f, Filters filters) {
    DashboardService service = new DashboardService(QueryStack.of(f.backend), CATALOG);
    Map<String, PanelResult> out = new HashMap<>();
    for (PanelResult p :
        service.render(DashboardRequest.of(filters, f.now() - WINDOW_MS, f.now()))) {
      out.put(p.panel().id(), p);
    }
    return out;
  }

  /** A panel's first query now, keyed by pod and GPU ({@code pod/gpu}) or by pod. */
  private static Map<String, Double> values(String panelId) {
    var panel = Dashboards.panel(panelId);
    Measure m = panel.queries().get(0).measure();
    DashboardService service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            Map.of(),
            0.95,
            "5m",
            Presence.of(service.inventory(fleet.now()).families()));
    String q = new PromqlCompiler(CATALOG).compile(m, panel.level(), o).orElseThrow();
    Vector v = (Vector) fleet.backend.instantQuery(q, fleet.now()).value();
    Map<String, Double> out = new HashMap<>();
    for (Sample s : v.samples()) {
      String key =
          s.labels().get("pod") + (panel.level() == Level.GPU ? "/" + s.labels().get("gpu") : "");
      assertThat(out.put(key, s.value())).as(key + " once: " + q).isNull();
    }
    return out;
  }

  /** The filter that selects the MI300X pod: the model it alone serves. */
  private static Filters amdModel() {
    String model = fleet.fleet.pods().get(0).info().model();
    assertThat(fleet.fleet.pods().get(1).info().model()).isNotEqualTo(model);
    return Filters.of(Map.of("model_name", model));
  }

  private static AmdExporter amd() {
    return fleet.fleet.amdExporter(amdPod).orElseThrow();
  }

  @Test
  void theFleetHasOneNodeOfEachVendor() {
    assertThat(fleet.fleet.amdExporter(amdPod)).isPresent();
    assertThat(fleet.fleet.amdExporter(nvidiaPod)).isEmpty();
  }

  @Test
  void theMi300xPodsGpuPanelsHaveDataLikeTheH100Pods() {
    Map<String, PanelResult> all = render(fleet, Filters.NONE);
    Map<String, PanelResult> amdOnly = render(fleet, amdModel());
    for (String id : PANELS) {
      assertThat(all.get(id).status())
          .as(id + " " + all.get(id).reasons())
          .isEqualTo(PanelResult.Status.OK);
      assertThat(amdOnly.get(id).status())
          .as(id + " of the MI300X pod " + amdOnly.get(id).reasons())
          .isEqualTo(PanelResult.Status.OK);
    }
    for (String id : List.of("gpu.utilization", "gpu.memory_used")) {
      // one series per GPU: the AMD exporter's gpu_id is the panels' gpu
      assertThat(values(id)).as(id).containsKeys(amdPod + "/0", nvidiaPod + "/0").hasSize(2);
    }
  }

  @Test
  void theMi300xPodsValuesAreItsExportersReadings() {
    // the last scrape is the instant of the query: its readings are what the panels show
    double gfx = amd().gfxActivity(amdPod).get(0);
    assertThat(gfx).as("the pod works").isPositive();
    assertThat(values("gpu.utilization").get(amdPod + "/0")).isEqualTo(gfx);
    double vram = amd().usedVramMb(amdPod);
    assertThat(vram).isGreaterThan(0.8 * AmdExporter.VRAM_TOTAL_MB);
    assertThat(values("gpu.memory_used").get(amdPod + "/0")).isEqualTo(vram);
  }

  @Test
  void energyPerTokenIsEachPodsJoulesOverItsTokensInEitherExportersUnit() {
    Map<String, double[]> last = TRUTH.get(fleet.now());
    Map<String, double[]> first = TRUTH.get(fleet.now() - WINDOW_MS + 15_000);
    Map<String, Double> panel = values("pod.energy_per_token");
    assertThat(panel).containsOnlyKeys(amdPod, nvidiaPod);
    for (String pod : List.of(amdPod, nvidiaPod)) {
      double want = (last.get(pod)[0] - first.get(pod)[0]) / (last.get(pod)[1] - first.get(pod)[1]);
      assertThat(want).as(pod).isGreaterThan(0);
      assertThat(panel.get(pod)).as(pod).isCloseTo(want, within(want * 1e-6));
    }
  }

  @Test
  void eachPodCountsItsOneGpuAndTheMi300xHasItsPeak() {
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            Map.of(),
            0.95,
            "5m",
            Presence.of(
                new DashboardService(QueryStack.of(fleet.backend), CATALOG)
                    .inventory(fleet.now())
                    .families()));
    PromqlCompiler c = new PromqlCompiler(CATALOG);
    Vector gpus =
        (Vector)
            fleet
                .backend
                .instantQuery(
                    c.compileGpuCount(List.of("namespace", "pod", "modelName"), o).orElseThrow(),
                    fleet.now())
                .value();
    Map<String, String> models = new HashMap<>();
    for (Sample s : gpus.samples()) {
      assertThat(s.value()).as(s.labels().toString()).isEqualTo(1);
      models.put(s.labels().get("pod"), s.labels().get("modelName"));
    }
    assertThat(models)
        .containsEntry(amdPod, AmdExporter.MI300X_CARD_MODEL)
        .containsEntry(nvidiaPod, "NVIDIA H100 80GB HBM3");
  }

  @Test
  void mfuDividesEachPodsFlopsByItsGpusPeak() {
    Map<String, Double> flops = values("efficiency_pod.flops");
    Map<String, Double> mfu = values("efficiency_pod.mfu");
    assertThat(mfu).containsOnlyKeys(amdPod, nvidiaPod);
    // gpu-peaks.yaml: MI300X 1,307.4 dense BF16 TFLOP/s (card_model 102-G30211-0C), H100 989.4
    assertThat(flops.get(amdPod) / mfu.get(amdPod)).isCloseTo(1307.4e12, within(1e6));
    assertThat(flops.get(nvidiaPod) / mfu.get(nvidiaPod)).isCloseTo(989.4e12, within(1e6));
  }

  @Test
  void theEfficiencyFiguresPriceAndMeterTheMi300xByItsCardModel() {
    long end = fleet.now();
    double price = 3.5;
    Efficiency e =
        new EfficiencyService(
                fleet.backend,
                new InventoryService(CATALOG, fleet.backend),
                () ->
                    new LlmConfig.Cost(
                        "USD", Optional.empty(), Map.of(AmdExporter.MI300X_CARD_MODEL, price)))
            .compute(
                new EfficiencyRequest(
                    OptionalLong.of(end - WINDOW_MS),
                    OptionalLong.of(end),
                    OptionalLong.of(15_000),
                    "",
                    ""));
    List<Group> hits = e.pods().stream().filter(g -> amdPod.equals(g.labels().get("pod"))).toList();
    assertThat(hits).hasSize(1);
    Figures f = hits.get(0).figures();
    double joules = TRUTH.get(end).get(amdPod)[0] - TRUTH.get(end - WINDOW_MS).get(amdPod)[0];
    assertThat(joules).isPositive();
    assertThat(f.energyJoules().present()).as(f.energyJoules().reason()).isTrue();
    assertThat(f.energyJoules().get()).isCloseTo(joules, within(joules * 1e-9));
    assertThat(f.gpuSecondsByGpuModel())
        .containsOnlyKeys(AmdExporter.MI300X_CARD_MODEL)
        .containsEntry(AmdExporter.MI300X_CARD_MODEL, WINDOW_MS / 1000.0);
    assertThat(f.cost().present()).as(f.cost().reason()).isTrue();
    assertThat(f.cost().get()).isCloseTo(WINDOW_MS / 1000.0 / 3600 * price, within(1e-9));
  }

  /**
   * One configuration pricing both GPU models, each as its exporter names it (dcgm-exporter's
   * {@code modelName}, AMD's {@code card_model}): each pod's cost is its own GPU-seconds at its own
   * GPU's price, and its model's cost per million tokens is that cost over its own tokens.
   */
  @Test
  void eachPodIsPricedByItsOwnGpuModel() {
    long end = fleet.now();
    double h100 = 2.5;
    double mi300x = 3.5;
    Efficiency e =
        new EfficiencyService(
                fleet.backend,
                new InventoryService(CATALOG, fleet.backend),
                () ->
                    new LlmConfig.Cost(
                        "USD",
                        Optional.empty(),
                        Map.of(
                            AmdExporter.MI300X_CARD_MODEL, mi300x, "NVIDIA H100 80GB HBM3", h100)))
            .compute(
                new EfficiencyRequest(
                    OptionalLong.of(end - WINDOW_MS),
                    OptionalLong.of(end),
                    OptionalLong.of(15_000),
                    "",
                    ""));
    double gpuSeconds = WINDOW_MS / 1000.0;
    for (Object[] c : new Object[][] {{amdPod, mi300x}, {nvidiaPod, h100}}) {
      String pod = (String) c[0];
      double price = (Double) c[1];
      List<Group> hits = e.pods().stream().filter(g -> pod.equals(g.labels().get("pod"))).toList();
      assertThat(hits).as(pod).hasSize(1);
      Figures f = hits.get(0).figures();
      assertThat(f.cost().present()).as(pod + ": " + f.cost().reason()).isTrue();
      assertThat(f.cost().get()).as(pod).isCloseTo(gpuSeconds / 3600 * price, within(1e-9));
      double tokens = TRUTH.get(end).get(pod)[1] - TRUTH.get(end - WINDOW_MS).get(pod)[1];
      assertThat(tokens).as(pod + " tokens").isPositive();
      assertThat(f.costPerMillionTokens().get())
          .as(pod)
          .isCloseTo(gpuSeconds / 3600 * price / tokens * 1e6, within(1e-6));
    }
  }

  @Test
  void whatOnlyDcgmMeasuresSaysSoForTheMi300xPod() {
    Map<String, PanelResult> amdOnly = render(fleet, amdModel());
    for (String id : List.of("gpu.tensor_active", "gpu.nvlink_traffic")) {
      PanelResult p = amdOnly.get(id);
      assertThat(p.status()).as(id).isEqualTo(PanelResult.Status.EMPTY);
      assertThat(p.reasons())
          .as(id)
          .anySatisfy(
              r -> {
                assertThat(r.kind()).isEqualTo(EmptyReason.Kind.NOT_EXPOSED);
                assertThat(r.engine()).isEqualTo("amdgpu");
                assertThat(r.message()).contains("an NVIDIA dcgm-exporter field");
              });
    }
  }

  @Test
  void withNoGpuExporterAtAllTheReasonIsDcgmExportersAsBefore() {
    MemoryStorage storage = new MemoryStorage();
    Appender a = storage.appender();
    long t = SimulatedFleet.START;
    for (int i = 0; i < 10; i++) {
      for (String name : List.of("up", "vllm:num_requests_running")) {
        a.append(
            0,
            Labels.of(
                "__name__",
                name,
                "job",
                "vllm",
                "instance",
                "p:8000",
                "backend",
                "vllm",
                "namespace",
                "n",
                "pod",
                "p"),
            t + i * 15_000L,
            1);
      }
    }
    a.commit();
    DashboardService s =
        new DashboardService(
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)), CATALOG);
    PanelResult p =
        s.render(
                new DashboardRequest(
                    Filters.NONE, 0.95, t, t + 135_000, 15_000, "5m", List.of("gpu.utilization")))
            .get(0);
    assertThat(p.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.reasons())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.kind()).isEqualTo(EmptyReason.Kind.NO_TARGETS);
              assertThat(r.engine()).isEqualTo("dcgm");
              assertThat(r.message())
                  .isEqualTo("no dcgm-exporter target is scraped: GPU panels need one per node");
            });
  }

  @Test
  void anAllAmdFleetSaysOnlyThatTheFieldIsNvidias() {
    SimulatedFleet amdOnly =
        new SimulatedFleet(config().amdNodes(3).build(), true).run(Duration.ofMinutes(4));
    Map<String, PanelResult> panels = render(amdOnly, Filters.NONE);
    assertThat(panels.get("gpu.utilization").status()).isEqualTo(PanelResult.Status.OK);
    PanelResult tensor = panels.get("gpu.tensor_active");
    assertThat(tensor.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(tensor.reasons())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.engine()).isEqualTo("amdgpu");
              assertThat(r.message()).contains("gpu_tensor_active").contains("NVIDIA");
            });
  }
}
