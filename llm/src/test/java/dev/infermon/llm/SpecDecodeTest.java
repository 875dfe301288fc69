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
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.vllm.VllmMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The speculative-decoding panels against the simulator's own spec-decode counters: two current
 * vLLM pods with {@code --speculative-config} (4 speculative tokens), one of them with two
 * data-parallel engines, serving one model; and a fleet without the flag, where the panels are
 * empty and say which flag they need.
 */
class SpecDecodeTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final FleetConfig.Builder SMALL =
      FleetConfig.builder()
          .vllmPods(2)
          .dataParallelPods(1)
          .legacyVllmPods(0)
          .sglangPods(0)
          .sglangGatewayPods(0)
          .prefillDecode(false)
          .models(List.of(MODEL));

  private static SimulatedFleet fleet;
  private static DashboardService service;

  /** Per step: pod -> [drafts, draft tokens, accepted tokens] summed over its engines. */
  private static final Map<Long, Map<String, double[]>> truth = new HashMap<>();

  @BeforeAll
  static void run() {
    fleet = new SimulatedFleet(SMALL.speculativeTokens(4).build(), false);
    fleet.run(
        Duration.ofMinutes(6),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            if (p instanceof VllmPod) {
              double[] v = new double[3];
              for (int i = 0; i < p.engines().size(); i++) {
                VllmMetrics m = ((VllmPod) p).metrics(i);
                v[0] += m.specDrafts();
                v[1] += m.specDraftTokens();
                v[2] += m.specAccepted();
              }
              at.put(p.info().name(), v);
            }
          }
          truth.put(snap.timeMillis(), at);
        });
    service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
  }

  /** The value of one query of a panel now, for the series whose grouping label is {@code key}. */
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

  /** Truth over the window PromQL's rate sees: samples in (now-5m, now], the first at now-285s. */
  private static double[] delta(String pod) {
    double[] end = truth.get(fleet.now()).get(pod);
    double[] start = truth.get(fleet.now() - 285_000).get(pod);
    double[] d = new double[end.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = end[i] - start[i];
    }
    return d;
  }

  private static double[] modelDelta() {
    double[] sum = new double[3];
    for (String pod : truth.get(fleet.now()).keySet()) {
      double[] d = delta(pod);
      for (int i = 0; i < sum.length; i++) {
        sum[i] += d[i];
      }
    }
    return sum;
  }

  @Test
  void podAcceptanceIsAcceptedOverDraftTokensOfEveryEngine() {
    Map<String, Double> panel = panelNow("pod.spec_acceptance", 0);
    assertThat(panel).hasSize(2);
    for (String pod : truth.get(fleet.now()).keySet()) {
      double[] d = delta(pod);
      assertThat(d[1]).as(pod + " drafted").isPositive();
      assertThat(panel.get(pod)).as(pod).isCloseTo(d[2] / d[1], within(1e-9));
    }
  }

  @Test
  void podDraftsPerSecondAndMeanAcceptanceLength() {
    Map<String, Double> drafts = panelNow("pod.spec_drafts", 0);
    Map<String, Double> length = panelNow("pod.spec_drafts", 1);
    for (String pod : truth.get(fleet.now()).keySet()) {
      double[] d = delta(pod);
      assertThat(drafts.get(pod)).as(pod).isCloseTo(d[0] / 285.0, within(d[0] / 285.0 * 1e-9));
      assertThat(length.get(pod)).as(pod).isCloseTo(1 + d[2] / d[0], within(1e-9));
    }
  }

  @Test
  void modelPanelsSumThePodsBeforeDividing() {
    double[] d = modelDelta();
    assertThat(panelNow("model.spec_acceptance", 0).get(MODEL))
        .isCloseTo(d[2] / d[1], within(1e-9));
    assertThat(panelNow("model.spec_acceptance_length", 0).get(MODEL))
        .isCloseTo(1 + d[2] / d[0], within(1e-9));
  }

  @ParameterizedTest
  @CsvSource({
    "model.spec_acceptance",
    "model.spec_acceptance_length",
    "pod.spec_acceptance",
    "pod.spec_drafts"
  })
  void withTheFlagThePanelsHaveData(String id) {
    assertThat(render(service, fleet).get(id).status()).as(id).isEqualTo(PanelResult.Status.OK);
  }

  @Test
  void withoutTheFlagThePanelsSayWhichFlag() {
    SimulatedFleet off = new SimulatedFleet(SMALL.speculativeTokens(0).build(), false);
    off.run(Duration.ofMinutes(3));
    DashboardService s = new DashboardService(QueryStack.of(off.backend), CATALOG);
    Map<String, PanelResult> panels = render(s, off);
    for (String id :
        List.of(
            "model.spec_acceptance",
            "model.spec_acceptance_length",
            "pod.spec_acceptance",
            "pod.spec_drafts")) {
      PanelResult p = panels.get(id);
      assertThat(p.status()).as(id).isEqualTo(PanelResult.Status.EMPTY);
      assertThat(p.reasons())
          .as(id)
          .isNotEmpty()
          .allSatisfy(
              r -> {
                assertThat(r.kind()).isEqualTo(EmptyReason.Kind.BEHIND_FLAG);
                assertThat(r.engine()).isEqualTo("vllm");
                assertThat(r.flag()).isEqualTo("--speculative-config");
              });
    }
  }

  private static Map<String, PanelResult> render(DashboardService s, SimulatedFleet f) {
    Map<String, PanelResult> byId = new HashMap<>();
    for (PanelResult p : s.render(DashboardRequest.of(Filters.NONE, f.now() - 300_000, f.now()))) {
      byId.put(p.panel().id(), p);
    }
    return byId;
  }
}
