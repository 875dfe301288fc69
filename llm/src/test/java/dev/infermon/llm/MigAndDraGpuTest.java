package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Level;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.signals.Signal;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.DcgmAttribution;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.VllmPod;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The GPU-to-pod join on a MIG node (seven vLLM pods on the 1g.10gb instances of one H100, an
 * SGLang pod on two whole GPUs) and on a DRA node (attribution by namespace/pod with the claim
 * labels and no {@code pod_uid}), against the simulator's own pods, GPUs and energy counters.
 */
class MigAndDraGpuTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final long WINDOW_MS = 300_000;
  private static SimulatedFleet mig;
  private static SimulatedFleet dra;

  /** MIG fleet, per scrape: pod -> {its GPU's energy J (as its instance repeats it), tokens}. */
  private static final Map<Long, Map<String, double[]>> MIG_TRUTH = new LinkedHashMap<>();

  private static FleetConfigBuilder fleet(int vllmPods, int sglangPods) {
    return FleetConfig.builder()
        .vllmPods(vllmPods)
        .dataParallelPods(0)
        .legacyVllmPods(0)
        .sglangPods(sglangPods)
        .sglangGatewayPods(0)
        .prefillDecode(false)
        .models(List.of("org/model-a"));
  }

  @BeforeAll
  static void run() {
    mig =
        new SimulatedFleet(
            fleet(7, 1).dcgmAttribution(DcgmAttribution.mig("1g.10gb")).build(), true);
    mig.run(
        Duration.ofMinutes(8),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : mig.fleet.pods()) {
            if (p instanceof VllmPod) {
              String pod = p.info().name();
              double tokens = ((VllmPod) p).metrics(0).generationTokens();
              at.put(pod, new double[] {mig.fleet.gpuEnergyJoules(pod), tokens});
            }
          }
          MIG_TRUTH.put(snap.timeMillis(), at);
        });
    dra =
        new SimulatedFleet(fleet(2, 0).dcgmAttribution(DcgmAttribution.draClaims()).build(), true);
    dra.run(Duration.ofMinutes(6));
  }

  private static PromqlCompiler.Options options(SimulatedFleet f) {
    DashboardService service = new DashboardService(QueryStack.of(f.backend), CATALOG);
    return new PromqlCompiler.Options(
        Filters.NONE, Map.of(), 0.95, "5m", Presence.of(service.inventory(f.now()).families()));
  }

  private static Map<String, Double> byLabel(SimulatedFleet f, String query, String label) {
    Vector v = (Vector) f.backend.instantQuery(query, f.now()).value();
    Map<String, Double> out = new HashMap<>();
    v.samples().forEach(s -> out.put(s.labels().get(label), s.value()));
    return out;
  }

  private static boolean onInstance(PodInfo p) {
    return p.backend() == Backend.VLLM;
  }

  @Test
  void aPodOnA1g10gbInstanceIsOneSeventhOfAGpuAndWholeGpusStayWhole() {
    String q =
        new PromqlCompiler(CATALOG)
            .compileGpuCount(Level.POD.groupBy(), options(mig))
            .orElseThrow();
    Map<String, Double> gpus = byLabel(mig, q, "pod");
    int pods = 0;
    for (PodInfo p : mig.fleet.inventory()) {
      if (p.backend() == Backend.DCGM) {
        continue;
      }
      pods++;
      double want = onInstance(p) ? 1.0 / 7 : p.gpus();
      assertThat(gpus.get(p.name())).as(p.name()).isCloseTo(want, within(1e-12));
    }
    assertThat(gpus).hasSize(pods);
    String model =
        new PromqlCompiler(CATALOG)
            .compileGpuCount(Level.MODEL.groupBy(), options(mig))
            .orElseThrow();
    // seven instances make one GPU, beside the SGLang pod's two
    assertThat(byLabel(mig, model, "model_name").get("org/model-a")).isCloseTo(3, within(1e-12));
  }

  @Test
  void eachMigPodHasItsInstancesSeriesOnTheGpuPanels() {
    String q =
        new PromqlCompiler(CATALOG)
            .compile(new Measure.Gpu(Signal.GPU_MEMORY_USED), Level.GPU, options(mig))
            .orElseThrow();
    Vector v = (Vector) mig.backend.instantQuery(q, mig.now()).value();
    Map<String, Integer> seriesPerPod = new HashMap<>();
    v.samples().forEach(s -> seriesPerPod.merge(s.labels().get("pod"), 1, Integer::sum));
    for (PodInfo p : mig.fleet.inventory()) {
      if (p.backend() != Backend.DCGM) {
        assertThat(seriesPerPod.get(p.name())).as(p.name()).isEqualTo(onInstance(p) ? 1 : 2);
      }
    }
    List<PanelResult> panels =
        new DashboardService(QueryStack.of(mig.backend), CATALOG)
            .render(DashboardRequest.of(Filters.NONE, mig.now() - WINDOW_MS, mig.now()));
    for (PanelResult r : panels) {
      if (r.panel().id().equals("gpu.memory_used") || r.panel().id().equals("gpu.tensor_active")) {
        assertThat(r.status()).as(r.panel().id()).isEqualTo(PanelResult.Status.OK);
      }
    }
  }

  /**
   * Every instance repeats its GPU's energy counter: unweighted, the seven pods would count the
   * GPU's energy seven times. Weighted by their shares, they count it once, and each pod's energy
   * per token is a seventh of the GPU's energy over its own tokens.
   */
  @Test
  void theEnergyOfAGpuCutIntoInstancesIsCountedOnce() {
    Map<String, double[]> last = MIG_TRUTH.get(mig.now());
    Map<String, double[]> first = MIG_TRUTH.get(mig.now() - WINDOW_MS + 15_000);
    Measure perToken =
        new Measure.Ratio(
            new Measure.Gpu(Signal.GPU_ENERGY), new Measure.Rate(Signal.GENERATION_TOKENS));
    PromqlCompiler compiler = new PromqlCompiler(CATALOG);
    Map<String, Double> pods =
        byLabel(mig, compiler.compile(perToken, Level.POD, options(mig)).orElseThrow(), "pod");
    double gpuJoules = 0;
    double tokens = 0;
    for (Map.Entry<String, double[]> e : last.entrySet()) {
      double joules = e.getValue()[0] - first.get(e.getKey())[0];
      double generated = e.getValue()[1] - first.get(e.getKey())[1];
      assertThat(generated).as(e.getKey()).isGreaterThan(0);
      double want = joules / 7 / generated;
      assertThat(pods.get(e.getKey())).as(e.getKey()).isCloseTo(want, within(want * 1e-6));
      gpuJoules = joules; // the same GPU for all seven
      tokens += generated;
    }
    assertThat(last).hasSize(7);
    assertThat(tokens).isGreaterThan(0);
    // the seven shares add up to the GPU's energy once, not seven times
    double sum = 0;
    for (Map.Entry<String, double[]> e : last.entrySet()) {
      sum += pods.get(e.getKey()) * (e.getValue()[1] - first.get(e.getKey())[1]);
    }
    assertThat(sum).isCloseTo(gpuJoules, within(gpuJoules * 1e-6));
  }

  @Test
  void draAttributedGpusJoinByNamespaceAndPodWithoutPodUid() {
    Vector uid =
        (Vector)
            dra.backend
                .instantQuery("count(DCGM_FI_DEV_FB_USED{pod_uid!=\"\"})", dra.now())
                .value();
    assertThat(uid.samples()).isEmpty();
    Vector claims =
        (Vector)
            dra.backend
                .instantQuery(
                    "count(DCGM_FI_DEV_FB_USED{dra_driver_name=\"gpu.nvidia.com\"})", dra.now())
                .value();
    assertThat(claims.samples().get(0).value()).isEqualTo(2);
    String q =
        new PromqlCompiler(CATALOG)
            .compileGpuCount(Level.POD.groupBy(), options(dra))
            .orElseThrow();
    Map<String, Double> gpus = byLabel(dra, q, "pod");
    for (PodInfo p : dra.fleet.inventory()) {
      if (p.backend() != Backend.DCGM) {
        assertThat(gpus.get(p.name())).as(p.name()).isEqualTo(p.gpus());
      }
    }
    List<PanelResult> panels =
        new DashboardService(QueryStack.of(dra.backend), CATALOG)
            .render(DashboardRequest.of(Filters.NONE, dra.now() - WINDOW_MS, dra.now()));
    int gpuPanels = 0;
    for (PanelResult r : panels) {
      String id = r.panel().id();
      if (id.equals("gpu.memory_used") || id.endsWith(".energy_per_token")) {
        assertThat(r.status()).as(id).isEqualTo(PanelResult.Status.OK);
        gpuPanels++;
      }
    }
    assertThat(gpuPanels).isEqualTo(3);
  }
}
