package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.capacity.CapacityJson;
import dev.infermon.llm.capacity.CapacityRequest;
import dev.infermon.llm.capacity.CapacityService;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.diagnosis.Finding;
import dev.infermon.llm.diagnosis.State;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.efficiency.Figures;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.report.ModelReport;
import dev.infermon.llm.report.Report;
import dev.infermon.llm.report.ReportJson;
import dev.infermon.llm.report.ReportRequest;
import dev.infermon.llm.report.ReportService;
import dev.infermon.llm.report.ReportText;
import dev.infermon.llm.report.SloAttainment;
import dev.infermon.llm.report.WorstPeriod;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.vllm.VllmMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The report over a simulated vLLM fleet of two models whose history the test knows: model A runs
 * healthy for 30 minutes, saturated for 20, healthy again for 30; model B healthy throughout. The
 * traffic is the simulator's own counters, the cost an independent computation from its GPUs and
 * the price, the worst period of A lies in its saturation and its diagnosis says so; the layout is
 * the golden's ({@code report/report.txt}, {@code report/report.md}; regenerate with {@code
 * -Dinfermon.golden.regenerate=true}, then read the diff).
 */
class ReportTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String H100 = "NVIDIA H100 80GB HBM3";
  private static final double PRICE = 2.5;
  private static final String A = "org/model-a";
  private static final String B = "org/model-b";
  private static final long WINDOW_MS = Duration.ofMinutes(80).toMillis();
  private static final LlmConfig.Cost COST =
      new LlmConfig.Cost("USD", Optional.empty(), Map.of(H100, PRICE));

  private static SimulatedFleet fleet;
  private static long saturatedFrom;
  private static long saturatedUntil;

  /**
   * Per scrape time: pod -> {finished requests, prompt tokens, generated tokens, TTFT observations
   * at most 2.5 s, TTFT observations}.
   */
  private static final Map<Long, Map<String, double[]>> TRUTH = new TreeMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(A, B))
            .build();
    fleet = new SimulatedFleet(config, false);
    fleet.run(Duration.ofMinutes(31), ReportTest::observe);
    saturatedFrom = fleet.now();
    for (PodInfo p : fleet.fleet.inventory()) {
      if (p.model().equals(A)) {
        fleet.fleet.setScenario(Scenario.SATURATED, p.name());
      }
    }
    fleet.run(Duration.ofMinutes(20), ReportTest::observe);
    saturatedUntil = fleet.now();
    for (PodInfo p : fleet.fleet.inventory()) {
      if (p.model().equals(A)) {
        fleet.fleet.setScenario(Scenario.HEALTHY, p.name());
      }
    }
    fleet.run(Duration.ofMinutes(30), ReportTest::observe);
  }

  private static void observe(dev.infermon.simulator.Fleet.Snapshot snap) {
    Map<String, double[]> at = new HashMap<>();
    for (InferencePod p : fleet.fleet.pods()) {
      double[] v = new double[5];
      for (int i = 0; i < p.engines().size(); i++) {
        VllmMetrics m = ((VllmPod) p).metrics(i);
        for (String reason : VllmMetrics.FINISHED_REASONS) {
          v[0] += m.finished(reason);
        }
        v[1] += m.promptTokens();
        v[2] += m.generationTokens();
        for (int b = 0; b < m.ttft().size(); b++) {
          if (m.ttft().bound(b) == 2.5) {
            v[3] += m.ttft().cumulative(b);
          }
        }
        v[4] += m.ttft().count();
      }
      at.put(p.info().name(), v);
    }
    TRUTH.put(snap.timeMillis(), at);
  }

  private static ReportService service(List<LlmConfig.Slo> slos) {
    InventoryService inventories = new InventoryService(CATALOG, fleet.backend);
    return new ReportService(
        fleet.backend,
        inventories,
        new DiagnosisService(fleet.backend, inventories),
        new CapacityService(fleet.backend, inventories),
        new EfficiencyService(fleet.backend, inventories, () -> COST),
        () -> LlmConfig.Alerts.DEFAULT,
        () -> slos);
  }

  private static Report report;

  /** The report of every model over the window, made once: each takes a few diagnoses. */
  private static Report report() {
    if (report == null) {
      report = service(List.of()).report(ReportRequest.of(fleet.now(), WINDOW_MS, ""));
    }
    return report;
  }

  private static ModelReport model(Report r, String name) {
    return r.models().stream()
        .filter(m -> m.model().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + name + " in the report"));
  }

  /** The simulator's counters of {@code model}'s pods: gained over the window. */
  private static double[] truth(String model) {
    double[] out = new double[5];
    long end = fleet.now();
    for (PodInfo p : fleet.fleet.inventory()) {
      if (!p.model().equals(model)) {
        continue;
      }
      double[] last = TRUTH.get(end).get(p.name());
      double[] first = TRUTH.get(end - WINDOW_MS).get(p.name());
      for (int i = 0; i < out.length; i++) {
        out[i] += last[i] - first[i];
      }
    }
    return out;
  }

  @Test
  void trafficIsTheSimulatorsCounters() {
    Report r = report();
    assertThat(r.endMs() - r.startMs()).isEqualTo(WINDOW_MS);
    assertThat(r.periodMs()).isEqualTo(Duration.ofMinutes(10).toMillis());
    assertThat(r.models()).extracting(ModelReport::model).containsExactly(A, B);
    for (String m : List.of(A, B)) {
      double[] want = truth(m);
      assertThat(want[0]).as(m + " requests").isGreaterThan(100);
      ModelReport got = model(r, m);
      assertThat(got.traffic().requests()).as(m).isCloseTo(want[0], within(1e-6));
      assertThat(got.traffic().promptTokens()).as(m).isCloseTo(want[1], within(1e-6));
      assertThat(got.traffic().generatedTokens()).as(m).isCloseTo(want[2], within(1e-6));
      assertThat(got.traffic().meanRate())
          .as(m)
          .isCloseTo(want[0] / (WINDOW_MS / 1000.0), within(1e-9));
      assertThat(got.traffic().peakRate()).as(m).isGreaterThanOrEqualTo(got.traffic().meanRate());
    }
  }

  @Test
  void theWorstPeriodOfTheSaturatedModelIsItsSaturationAndItsDiagnosisSaysSo() {
    ModelReport a = model(report(), A);
    assertThat(a.worst()).hasSize(ReportService.DEFAULT_WORST);
    WorstPeriod w = a.worst().get(0);
    assertThat(w.endMs()).isGreaterThan(saturatedFrom);
    assertThat(w.startMs()).isLessThan(saturatedUntil);
    assertThat(w.ttftSeconds())
        .isGreaterThan(LlmConfig.Alerts.DEFAULT.ttftThreshold().toMillis() / 1000.0);
    assertThat(w.findings()).extracting(Finding::model).containsOnly(A);
    assertThat(w.findings())
        .extracting(Finding::state)
        .containsAnyOf(State.SATURATED, State.KV_PRESSURE);
    for (WorstPeriod p : model(report(), B).worst()) {
      assertThat(p.ttftSeconds()).isLessThan(w.ttftSeconds());
      assertThat(p.findings())
          .extracting(Finding::state)
          .doesNotContain(State.SATURATED, State.KV_PRESSURE);
    }
  }

  @Test
  void costIsTheSimulatorsGpuTimeAtThePriceAndTheEfficiencyServicesFigure() {
    Report r = report();
    assertThat(r.currency()).isEqualTo("USD");
    for (String m : List.of(A, B)) {
      double gpuSeconds = 0;
      for (PodInfo p : fleet.fleet.inventory()) {
        if (p.model().equals(m)) {
          gpuSeconds += p.gpus() * WINDOW_MS / 1000.0;
        }
      }
      double cost = gpuSeconds / 3600 * PRICE;
      Figures f = model(r, m).efficiency().orElseThrow();
      assertThat(f.cost().get()).as(m).isCloseTo(cost, within(cost * 1e-9));
      assertThat(f.costPerMillionTokens().get())
          .as(m)
          .isCloseTo(cost / truth(m)[2] * 1e6, within(cost / truth(m)[2] * 1e-3));
    }
  }

  @Test
  void headroomIsTheCapacityServicesEstimate() {
    Report r = report();
    InventoryService inventories = new InventoryService(CATALOG, fleet.backend);
    for (String m : List.of(A, B)) {
      var want =
          new CapacityService(fleet.backend, inventories)
              .estimate(
                  new CapacityRequest(
                      Optional.of(m),
                      Optional.empty(),
                      OptionalLong.of(WINDOW_MS),
                      OptionalLong.of(r.endMs())))
              .models();
      assertThat(want).isNotEmpty();
      assertThat(model(r, m).headroom()).isEqualTo(want);
    }
  }

  @Test
  void withoutSlosTheAlertPacksObjectivesAreMeasuredAndConfiguredOnesReplaceThem() {
    List<SloAttainment> defaults = model(report(), B).slos();
    assertThat(defaults).extracting(SloAttainment::sli).containsExactly("ttft", "success");
    assertThat(defaults).extracting(SloAttainment::source).containsOnly("llm.alerts");
    assertThat(defaults.get(0).attainment()).isPresent();
    assertThat(defaults.get(1).attainment().getAsDouble()).isCloseTo(1.0, within(0.05));
    LlmConfig.Slo slo =
        new LlmConfig.Slo(
            "a-ttft", A, "ttft", "", Duration.ofMillis(2500), 0.99, Duration.ofDays(30));
    LlmConfig.Slo offBound =
        new LlmConfig.Slo(
            "a-ttft-odd", A, "ttft", "", Duration.ofMillis(1700), 0.99, Duration.ofDays(30));
    ModelReport a =
        service(List.of(slo, offBound))
            .report(ReportRequest.of(fleet.now(), WINDOW_MS, A))
            .models()
            .get(0);
    assertThat(a.slos()).extracting(SloAttainment::name).containsExactly("a-ttft", "a-ttft-odd");
    SloAttainment got = a.slos().get(0);
    assertThat(got.source()).isEqualTo("llm.slos");
    // the share of the window's first tokens within 2.5 s, as the simulator's own histogram counts
    double[] truth = truth(A);
    assertThat(truth[4]).isGreaterThan(100);
    assertThat(got.attainment().getAsDouble()).isCloseTo(truth[3] / truth[4], within(0.01));
    assertThat(got.attainment().getAsDouble()).isLessThan(0.99);
    assertThat(got.met()).isFalse();
    assertThat(a.slos().get(1).attainment()).isEmpty();
    assertThat(a.slos().get(1).reason()).contains("not a bound");
  }

  @Test
  void badWindowsAndAbsentModelsAreRefusedNamingTheParameter() {
    ReportService s = service(List.of());
    assertThatThrownBy(() -> s.report(ReportRequest.of(fleet.now(), 0, "")))
        .isInstanceOf(BadParameterException.class)
        .hasMessageContaining("positive");
    assertThatThrownBy(
            () -> s.report(ReportRequest.of(fleet.now(), Duration.ofDays(91).toMillis(), "")))
        .hasMessageContaining("must not exceed 90d");
    assertThatThrownBy(() -> s.report(ReportRequest.of(fleet.now(), WINDOW_MS, "org/none")))
        .isInstanceOf(BadParameterException.class)
        .satisfies(e -> assertThat(((BadParameterException) e).parameter()).isEqualTo("model"))
        .hasMessageContaining("no samples for model \"org/none\" in the window");
    long before = SimulatedFleet.START - Duration.ofDays(1).toMillis();
    assertThatThrownBy(() -> s.report(ReportRequest.of(before, WINDOW_MS, "")))
        .satisfies(e -> assertThat(((BadParameterException) e).parameter()).isEqualTo("window"))
        .hasMessageContaining("no samples of any model");
  }

  @Test
  void progressIsToldStageByStage() {
    List<String> heard = new ArrayList<>();
    service(List.of()).report(ReportRequest.of(fleet.now(), WINDOW_MS, A), heard::add);
    assertThat(heard).anyMatch(l -> l.startsWith("traffic of " + A));
    assertThat(heard).anyMatch(l -> l.startsWith("diagnosis of "));
    assertThat(heard).anyMatch(l -> l.startsWith("capacity headroom"));
  }

  @Test
  void theJsonHasTheDocumentedShape() {
    Map<String, Object> tree = ReportJson.tree(report());
    assertThat(tree).containsOnlyKeys("start", "end", "periodSeconds", "currency", "models");
    @SuppressWarnings("unchecked")
    Map<String, Object> a = ((List<Map<String, Object>>) tree.get("models")).get(0);
    assertThat(a)
        .containsOnlyKeys("model", "traffic", "slos", "worstPeriods", "headroom", "efficiency");
    assertThat(a.get("model")).isEqualTo(A);
    @SuppressWarnings("unchecked")
    Map<String, Object> traffic = (Map<String, Object>) a.get("traffic");
    assertThat(traffic)
        .containsOnlyKeys(
            "requests", "promptTokens", "generatedTokens", "meanRate", "peakRate", "peakStart");
    @SuppressWarnings("unchecked")
    Map<String, Object> worst = ((List<Map<String, Object>>) a.get("worstPeriods")).get(0);
    assertThat(worst)
        .containsOnlyKeys("start", "end", "quantile", "ttftSeconds", "rate", "findings");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> findings = (List<Map<String, Object>>) worst.get("findings");
    assertThat(findings).extracting(f -> f.get("state")).contains("saturated");
    @SuppressWarnings("unchecked")
    Map<String, Object> slo = ((List<Map<String, Object>>) a.get("slos")).get(0);
    assertThat(slo)
        .containsOnlyKeys(
            "name",
            "sli",
            "source",
            "objective",
            "thresholdSeconds",
            "attainment",
            "met",
            "reason");
    @SuppressWarnings("unchecked")
    List<Object> headroom = (List<Object>) a.get("headroom");
    assertThat(headroom)
        .containsExactlyElementsOf(
            model(report(), A).headroom().stream().map(CapacityJson::headroom).toList());
    @SuppressWarnings("unchecked")
    Map<String, Object> eff = (Map<String, Object>) a.get("efficiency");
    assertThat(eff).containsKeys("costPerMillionTokens", "tokensPerGpuSecond");
  }

  @Test
  void theTextAndMarkdownLayoutsAreTheGoldens() throws IOException {
    Report r = report();
    golden(Path.of("src/test/resources/report/report.txt"), ReportText.text(r));
    golden(Path.of("src/test/resources/report/report.md"), ReportText.markdown(r));
  }

  private static void golden(Path file, String got) throws IOException {
    if (Boolean.getBoolean("infermon.golden.regenerate")) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, got);
    }
    assertThat(got).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
  }
}
