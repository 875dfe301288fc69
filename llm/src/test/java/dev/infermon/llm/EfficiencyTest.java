package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.config.app.LlmConfig;
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
import dev.infermon.llm.efficiency.Efficiency;
import dev.infermon.llm.efficiency.EfficiencyRequest;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.efficiency.Figure;
import dev.infermon.llm.efficiency.Figures;
import dev.infermon.llm.efficiency.Group;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.model.EngineModel;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The efficiency figures over a simulated vLLM fleet (plain and data-parallel pods, two models, one
 * pod nearly idle) against the simulator's own ground truth: the tokens its engines generated, the
 * joules its GPU energy counters read, the GPUs it allocated and the requests its engines ran at
 * each scrape, never against PromQL.
 */
class EfficiencyTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final long WINDOW_MS = 300_000;
  private static final long STEP_MS = 15_000;
  private static final String H100 = "NVIDIA H100 80GB HBM3";
  private static final double PRICE = 2.5;

  private static SimulatedFleet fleet;

  /** Per scrape time: pod -> {generated tokens, GPU joules, running requests}. */
  private static final Map<Long, Map<String, double[]>> TRUTH = new TreeMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(3)
            .dataParallelPods(1)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of("org/model-a", "org/model-b"))
            .build();
    fleet = new SimulatedFleet(config, true);
    // a pod with few requests, so that it has steps without a running request
    String quiet = fleet.fleet.pods().get(0).info().name();
    fleet.fleet.setScenario(Scenario.LONG_PROMPTS, quiet);
    fleet.run(
        Duration.ofMinutes(8),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            double generated = 0;
            double running = 0;
            for (int i = 0; i < p.engines().size(); i++) {
              generated += ((VllmPod) p).metrics(i).generationTokens();
              EngineModel e = p.engines().get(i);
              running += e.state().running();
            }
            String pod = p.info().name();
            at.put(pod, new double[] {generated, fleet.fleet.gpuEnergyJoules(pod), running});
          }
          TRUTH.put(snap.timeMillis(), at);
        });
  }

  private static EfficiencyService service(LlmConfig.Cost cost) {
    return new EfficiencyService(
        fleet.backend, new InventoryService(CATALOG, fleet.backend), () -> cost);
  }

  private static Efficiency compute(LlmConfig.Cost cost, String model) {
    long end = fleet.now();
    return service(cost)
        .compute(
            new EfficiencyRequest(
                OptionalLong.of(end - WINDOW_MS),
                OptionalLong.of(end),
                OptionalLong.of(STEP_MS),
                model,
                ""));
  }

  /** What the simulator says about one pod over the window: {tokens, joules, GPU-s, idle GPU-s}. */
  private static double[] truth(PodInfo p) {
    long end = fleet.now();
    double[] last = TRUTH.get(end).get(p.name());
    double[] first = TRUTH.get(end - WINDOW_MS).get(p.name());
    double idle = 0;
    for (long t = end - WINDOW_MS + STEP_MS; t <= end; t += STEP_MS) {
      if (TRUTH.get(t).get(p.name())[2] == 0) {
        idle += p.gpus() * STEP_MS / 1000.0;
      }
    }
    return new double[] {
      last[0] - first[0], last[1] - first[1], p.gpus() * WINDOW_MS / 1000.0, idle
    };
  }

  private static double value(Figure f) {
    assertThat(f.present()).as("absent: %s", f.reason()).isTrue();
    return f.get();
  }

  private static void assertFigures(String what, Figures f, double[] want) {
    double tokens = want[0];
    double joules = want[1];
    double gpuSeconds = want[2];
    double cost = gpuSeconds / 3600 * PRICE;
    assertThat(tokens).as(what + " generated tokens").isGreaterThan(0);
    assertThat(value(f.generatedTokens())).as(what).isCloseTo(tokens, within(1e-6));
    assertThat(value(f.energyJoules())).as(what).isCloseTo(joules, within(joules * 1e-9));
    assertThat(value(f.gpuSeconds())).as(what).isEqualTo(gpuSeconds);
    assertThat(value(f.idleGpuSeconds())).as(what).isEqualTo(want[3]);
    assertThat(value(f.tokensPerGpuSecond()))
        .as(what)
        .isCloseTo(tokens / gpuSeconds, within(tokens / gpuSeconds * 1e-9));
    assertThat(value(f.tokensPerJoule()))
        .as(what)
        .isCloseTo(tokens / joules, within(tokens / joules * 1e-9));
    assertThat(value(f.joulesPerToken()))
        .as(what)
        .isCloseTo(joules / tokens, within(joules / tokens * 1e-9));
    assertThat(value(f.cost())).as(what).isCloseTo(cost, within(cost * 1e-9));
    assertThat(value(f.costPerMillionTokens()))
        .as(what)
        .isCloseTo(cost / tokens * 1e6, within(cost / tokens * 1e-3));
    assertThat(f.gpuSecondsByGpuModel()).containsOnlyKeys(H100);
  }

  @Test
  void perPodPerModelAndPerWorkloadTheFiguresAreTheSimulatorsOwn() {
    Efficiency e = compute(new LlmConfig.Cost("USD", Optional.empty(), Map.of(H100, PRICE)), "");
    assertThat(e.stepMs()).isEqualTo(STEP_MS);
    assertThat(e.endMs() - e.startMs()).isEqualTo(WINDOW_MS);
    Map<String, double[]> byModel = new TreeMap<>();
    Map<String, double[]> byWorkload = new TreeMap<>();
    double idlePods = 0;
    int pods = 0;
    for (PodInfo p : fleet.fleet.inventory()) {
      if (p.model().isEmpty()) {
        continue;
      }
      pods++;
      double[] want = truth(p);
      idlePods += want[3] > 0 ? 1 : 0;
      Group g = only(e.pods(), "pod", p.name());
      assertThat(g.labels()).containsEntry("model_name", p.model());
      assertFigures(p.name(), g.figures(), want);
      add(byModel.computeIfAbsent(p.model(), k -> new double[4]), want);
      add(byWorkload.computeIfAbsent(p.workloadName(), k -> new double[4]), want);
    }
    assertThat(idlePods).as("pods with idle GPU time").isGreaterThan(0);
    assertThat(e.pods()).hasSize(pods);
    assertThat(byModel.size()).as("models").isLessThan(pods);
    assertThat(e.models()).hasSize(byModel.size());
    byModel.forEach(
        (m, want) -> assertFigures(m, only(e.models(), "model_name", m).figures(), want));
    assertThat(e.workloads()).hasSize(byWorkload.size());
    byWorkload.forEach(
        (w, want) -> assertFigures(w, only(e.workloads(), "workload_name", w).figures(), want));
  }

  @Test
  void theModelFilterKeepsOneModelsPods() {
    Efficiency e = compute(LlmConfig.Cost.NONE, "org/model-b");
    assertThat(e.models())
        .extracting(g -> g.labels().get("model_name"))
        .containsExactly("org/model-b");
    for (Group g : e.pods()) {
      assertThat(g.labels()).containsEntry("model_name", "org/model-b");
    }
  }

  @Test
  void withoutAPriceTheCostIsAbsentAndSaysWhy() {
    Figures none = compute(LlmConfig.Cost.NONE, "").models().get(0).figures();
    assertThat(none.cost().present()).isFalse();
    assertThat(none.cost().reason()).contains("no GPU-hour price is configured");
    assertThat(none.costPerMillionTokens().reason()).isEqualTo(none.cost().reason());
    assertThat(none.tokensPerGpuSecond().present()).isTrue();

    Figures other =
        compute(new LlmConfig.Cost("EUR", Optional.empty(), Map.of("NVIDIA A10G", 1.0)), "")
            .models()
            .get(0)
            .figures();
    assertThat(other.cost().reason()).contains("no price for GPU model \"" + H100 + "\"");

    Efficiency byDefault =
        compute(new LlmConfig.Cost("EUR", Optional.of(PRICE), Map.of("NVIDIA A10G", 1.0)), "");
    assertThat(byDefault.currency()).isEqualTo("EUR");
    Group pod = byDefault.pods().get(0);
    double gpuSeconds = value(pod.figures().gpuSeconds());
    assertThat(value(pod.figures().cost())).isCloseTo(gpuSeconds / 3600 * PRICE, within(1e-9));
  }

  /** The idle-GPU panel's points, each step's GPUs of pods running nothing, add up to the truth. */
  @Test
  void theIdleGpuPanelIntegratesToTheSimulatorsIdleGpuTime() {
    InventoryService inventories = new InventoryService(CATALOG, fleet.backend);
    long end = fleet.now();
    String q =
        new PromqlCompiler(CATALOG)
            .compile(
                new Measure.IdleGpus(),
                Level.POD,
                new PromqlCompiler.Options(
                    Filters.NONE,
                    Map.of(),
                    0.95,
                    "5m",
                    Presence.of(inventories.inventory(end, WINDOW_MS).families())))
            .orElseThrow();
    Matrix m =
        (Matrix) fleet.backend.rangeQuery(q, end - WINDOW_MS + STEP_MS, end, STEP_MS).value();
    Map<String, Double> idle = new HashMap<>();
    for (TimeSeries s : m.series()) {
      double sum = 0;
      for (int i = 0; i < s.size(); i++) {
        sum += s.valueAt(i) * STEP_MS / 1000.0;
      }
      idle.put(s.labels().get("pod"), sum);
      assertThat(s.size()).as("a point at every step, 0 when busy").isEqualTo(WINDOW_MS / STEP_MS);
    }
    int pods = 0;
    for (PodInfo p : fleet.fleet.inventory()) {
      if (!p.model().isEmpty()) {
        pods++;
        assertThat(idle.get(p.name())).as(p.name()).isEqualTo(truth(p)[3]);
      }
    }
    assertThat(idle).hasSize(pods);
  }

  private static PanelResult costPanel(LlmConfig.Cost cost) {
    long end = fleet.now();
    InventoryService inventories = new InventoryService(CATALOG, fleet.backend);
    return new DashboardService(fleet.backend, inventories, () -> cost)
        .render(
            new DashboardRequest(
                Filters.NONE,
                0.95,
                end - WINDOW_MS,
                end,
                STEP_MS,
                "5m",
                List.of("efficiency.cost_per_million_tokens")))
        .get(0);
  }

  /**
   * The cost panel's last point equals the service's cost per million over the samples its rate
   * reads, per model: the prices reach the PromQL as a per-{@code modelName} vector; a default
   * price stands in for an unlisted GPU model.
   */
  @Test
  void theCostPanelEqualsTheEfficiencyServicesCostPerMillionTokens() {
    for (LlmConfig.Cost cost :
        List.of(
            new LlmConfig.Cost("USD", Optional.empty(), Map.of(H100, PRICE, "NVIDIA A10G", 1.0)),
            new LlmConfig.Cost("USD", Optional.of(PRICE), Map.of("NVIDIA A10G", 1.0)))) {
      PanelResult p = costPanel(cost);
      assertThat(p.status()).as(p.reasons().toString()).isEqualTo(PanelResult.Status.OK);
      // rate(x[5m]) at t reads the samples in (t - 5m, t], 20 scrapes 285 s apart: the
      // service's window of the 19 steps ending at t
      long end = fleet.now();
      Efficiency e =
          service(cost)
              .compute(
                  new EfficiencyRequest(
                      OptionalLong.of(end - WINDOW_MS + STEP_MS),
                      OptionalLong.of(end),
                      OptionalLong.of(STEP_MS),
                      "",
                      ""));
      List<PanelResult.SeriesData> series = p.queries().get(0).series();
      assertThat(series).hasSize(e.models().size());
      for (PanelResult.SeriesData s : series) {
        double want =
            value(
                only(e.models(), "model_name", s.labels().get("model_name"))
                    .figures()
                    .costPerMillionTokens());
        assertThat(s.last()).as(s.labels().toString()).isCloseTo(want, within(want * 1e-9));
      }
    }
  }

  @Test
  void withoutAPriceTheCostPanelIsEmptyAndSaysWhy() {
    PanelResult p = costPanel(LlmConfig.Cost.NONE);
    assertThat(p.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.queries().get(0).promql()).isNull();
    assertThat(p.reasons())
        .extracting(EmptyReason::kind, EmptyReason::message)
        .contains(
            org.assertj.core.groups.Tuple.tuple(
                EmptyReason.Kind.NOT_CONFIGURED,
                "no GPU-hour price is configured: set llm.cost's gpu_hour_prices or"
                    + " default_gpu_hour_price (docs/configuration.md#llmcost)"));
  }

  private static void add(double[] sum, double[] d) {
    for (int i = 0; i < sum.length; i++) {
      sum[i] += d[i];
    }
  }

  private static Group only(List<Group> groups, String label, String value) {
    List<Group> hits = groups.stream().filter(g -> value.equals(g.labels().get(label))).toList();
    assertThat(hits).as(label + "=" + value).hasSize(1);
    return hits.get(0);
  }
}
