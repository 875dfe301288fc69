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
import dev.infermon.simulator.FleetConfigBuilder;
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
  private static final FleetConfigBuilder SMALL =
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

  /**
   * Per pod: [drafts, draft tokens, accepted tokens, accepted at positions 0..3] summed over its
   * engines.
   */
  private static VllmTruth truth;

  @BeforeAll
  static void run() {
    fleet = new SimulatedFleet(SMALL.speculativeTokens(4).build(), false);
    truth =
        new VllmTruth(
            fleet,
            Duration.ofMinutes(6),
            m ->
                new double[] {
                  m.specDrafts(),
                  m.specDraftTokens(),
                  m.specAccepted(),
                  m.specAcceptedAt(0),
                  m.specAcceptedAt(1),
                  m.specAcceptedAt(2),
                  m.specAcceptedAt(3)
                });
    service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
  }

  /** The value of one query of a panel now, by the panel's last grouping label. */
  private static Map<String, Double> panelNow(String panelId, int query) {
    return PanelValues.panel(fleet.backend, fleet.now(), panelId, query, Filters.NONE);
  }

  @Test
  void podAcceptanceIsAcceptedOverDraftTokensOfEveryEngine() {
    Map<String, Double> panel = panelNow("pod.spec_acceptance", 0);
    assertThat(panel).hasSize(2);
    for (String pod : truth.pods()) {
      double[] d = truth.delta(pod);
      assertThat(d[1]).as(pod + " drafted").isPositive();
      assertThat(panel.get(pod)).as(pod).isCloseTo(d[2] / d[1], within(1e-9));
    }
  }

  @Test
  void podDraftsPerSecondAndMeanAcceptanceLength() {
    Map<String, Double> drafts = panelNow("pod.spec_drafts", 0);
    Map<String, Double> length = panelNow("pod.spec_drafts", 1);
    for (String pod : truth.pods()) {
      double[] d = truth.delta(pod);
      assertThat(drafts.get(pod)).as(pod).isCloseTo(d[0] / 285.0, within(d[0] / 285.0 * 1e-9));
      assertThat(length.get(pod)).as(pod).isCloseTo(1 + d[2] / d[0], within(1e-9));
    }
  }

  @Test
  void acceptancePerPositionIsThePositionsAcceptedOverDrafts() {
    Panel p = Dashboards.panel("pod.spec_acceptance_by_position");
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            Map.of(),
            0.95,
            "5m",
            Presence.of(service.inventory(fleet.now()).families()));
    String q =
        new PromqlCompiler(CATALOG)
            .compile(p.queries().get(0).measure(), p.level(), o)
            .orElseThrow();
    Vector v = (Vector) fleet.backend.instantQuery(q, fleet.now()).value();
    assertThat(v.samples()).as(q).hasSize(2 * 4);
    for (Sample s : v.samples()) {
      String pod = s.labels().get("pod");
      int position = Integer.parseInt(s.labels().get("position"));
      double[] d = truth.delta(pod);
      assertThat(d[3 + position]).as(pod + " position " + position).isPositive();
      assertThat(s.value())
          .as(pod + " position " + position)
          .isCloseTo(d[3 + position] / d[0], within(1e-9));
    }
  }

  @Test
  void modelPanelsSumThePodsBeforeDividing() {
    double[] d = truth.total();
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
    "pod.spec_drafts",
    "pod.spec_acceptance_by_position"
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
            "pod.spec_drafts",
            "pod.spec_acceptance_by_position")) {
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
