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
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.VllmPod;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GPU panels over simulated dcgm-exporters of both node-label spellings ({@code Hostname}
 * through release 4.5.3-4.8.2, {@code hostname} on main: NVIDIA/dcgm-exporter#655), and energy per
 * generated token per pod and per model against the simulator's own energy counters and token
 * counts, never against PromQL.
 */
class GpuLabelsAndEnergyTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final long WINDOW_MS = 300_000;
  private static final Map<String, SimulatedFleet> FLEETS = new HashMap<>();

  /** Per spelling, per step: pod -> {GPU joules, generated tokens}. */
  private static final Map<String, Map<Long, Map<String, double[]>>> TRUTH = new HashMap<>();

  @BeforeAll
  static void run() {
    for (String label : List.of("Hostname", "hostname")) {
      FleetConfig config =
          FleetConfig.builder()
              .vllmPods(2)
              .dataParallelPods(0)
              .legacyVllmPods(0)
              .sglangPods(0)
              .sglangGatewayPods(0)
              .prefillDecode(false)
              .models(List.of("org/model-a", "org/model-b"))
              .dcgmNodeLabel(label)
              .build();
      SimulatedFleet fleet = new SimulatedFleet(config, true);
      Map<Long, Map<String, double[]>> truth = new LinkedHashMap<>();
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
            truth.put(snap.timeMillis(), at);
          });
      FLEETS.put(label, fleet);
      TRUTH.put(label, truth);
    }
  }

  private static Vector instant(SimulatedFleet fleet, Measure m, Level level) {
    DashboardService service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            Map.of(),
            0.95,
            "5m",
            Presence.of(service.inventory(fleet.now()).families()));
    String q = new PromqlCompiler(CATALOG).compile(m, level, o).orElseThrow();
    return (Vector) fleet.backend.instantQuery(q, fleet.now()).value();
  }

  @ParameterizedTest(name = "node label {0}")
  @ValueSource(strings = {"Hostname", "hostname"})
  void gpuPanelsJoinToPodsWhicheverSpellingTheExporterUses(String label) {
    SimulatedFleet fleet = FLEETS.get(label);
    Vector spelled =
        (Vector)
            fleet
                .backend
                .instantQuery("count(DCGM_FI_DEV_FB_USED{" + label + "!=\"\"})", fleet.now())
                .value();
    assertThat(spelled.samples()).as("the exporter spells it %s", label).hasSize(1);
    Vector gpus =
        (Vector)
            fleet
                .backend
                .instantQuery(
                    "count by (pod) ("
                        + new PromqlCompiler(CATALOG)
                            .compile(
                                new Measure.Gpu(Signal.GPU_MEMORY_USED),
                                Level.GPU,
                                new PromqlCompiler.Options(
                                    Filters.NONE,
                                    Map.of(),
                                    0.95,
                                    "5m",
                                    Presence.of(
                                        new DashboardService(QueryStack.of(fleet.backend), CATALOG)
                                            .inventory(fleet.now())
                                            .families())))
                            .orElseThrow()
                        + ")",
                    fleet.now())
                .value();
    Map<String, Double> byPod = new HashMap<>();
    gpus.samples().forEach(s -> byPod.put(s.labels().get("pod"), s.value()));
    for (InferencePod p : fleet.fleet.pods()) {
      assertThat(byPod.get(p.info().name())).as(p.info().name()).isEqualTo(p.info().gpus());
    }
    DashboardService service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
    List<PanelResult> panels =
        service.render(DashboardRequest.of(Filters.NONE, fleet.now() - WINDOW_MS, fleet.now()));
    int gpuPanels = 0;
    for (PanelResult r : panels) {
      String id = r.panel().id();
      if (id.startsWith("gpu.") || id.endsWith(".energy_per_token")) {
        assertThat(r.status()).as(id).isEqualTo(PanelResult.Status.OK);
        gpuPanels++;
      }
    }
    assertThat(gpuPanels).isGreaterThan(2);
  }

  /**
   * Joules per generated token over the 5 m window: both rates have samples at the same scrapes, so
   * their ratio is the energy used between the window's first and last scrape over the tokens
   * generated between them.
   */
  @ParameterizedTest(name = "node label {0}")
  @ValueSource(strings = {"Hostname", "hostname"})
  void energyPerTokenIsTheSimulatorsJoulesOverItsTokens(String label) {
    SimulatedFleet fleet = FLEETS.get(label);
    Map<Long, Map<String, double[]>> truth = TRUTH.get(label);
    Map<String, double[]> last = truth.get(fleet.now());
    Map<String, double[]> first = truth.get(fleet.now() - WINDOW_MS + 15_000);
    Map<String, double[]> perModel = new HashMap<>();
    for (PodInfo p : fleet.fleet.inventory()) {
      if (last.containsKey(p.name())) {
        double[] d = perModel.computeIfAbsent(p.model(), k -> new double[2]);
        d[0] += last.get(p.name())[0] - first.get(p.name())[0];
        d[1] += last.get(p.name())[1] - first.get(p.name())[1];
      }
    }
    Measure m =
        new Measure.Ratio(
            new Measure.Gpu(Signal.GPU_ENERGY), new Measure.Rate(Signal.GENERATION_TOKENS));
    Vector pods = instant(fleet, m, Level.POD);
    assertThat(pods.samples()).hasSize(last.size());
    pods.samples()
        .forEach(
            s -> {
              String pod = s.labels().get("pod");
              double want =
                  (last.get(pod)[0] - first.get(pod)[0]) / (last.get(pod)[1] - first.get(pod)[1]);
              assertThat(want).as(pod).isGreaterThan(0);
              assertThat(s.value()).as(pod).isCloseTo(want, within(want * 1e-6));
            });
    Vector models = instant(fleet, m, Level.MODEL);
    assertThat(models.samples()).hasSize(perModel.size());
    models
        .samples()
        .forEach(
            s -> {
              double[] d = perModel.get(s.labels().get("model_name"));
              assertThat(s.value()).isCloseTo(d[0] / d[1], within(d[0] / d[1] * 1e-6));
            });
  }
}
