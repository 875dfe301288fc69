package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.FleetConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Decode time per generated token beside inter-token latency under speculative decoding: current
 * vLLM pods with {@code --speculative-config} (4 speculative tokens; one pod with two data-parallel
 * engines) and an SGLang pod of the same model, which measures no decode time. The panels against
 * the simulator's own decode-time and generation-length histograms; ITL, observed once per verify
 * step, is the decode time per step, longer than the time per token by the mean acceptance length.
 */
class DecodePerTokenTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

  private static SimulatedFleet fleet;
  private static DashboardService service;

  /**
   * Per vLLM pod: [decode seconds, generated tokens, finished requests, ITL sum, ITL count, drafts,
   * accepted] over its engines.
   */
  private static VllmTruth truth;

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(1)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(MODEL))
            .speculativeTokens(4)
            .build();
    fleet = new SimulatedFleet(config, false);
    truth =
        new VllmTruth(
            fleet,
            Duration.ofMinutes(8),
            m ->
                new double[] {
                  m.decodeTime().sum(),
                  m.requestGenerationTokens().sum(),
                  m.requestGenerationTokens().count(),
                  m.interTokenLatency().sum(),
                  m.interTokenLatency().count(),
                  m.specDrafts(),
                  m.specAccepted()
                });
    service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
  }

  private static Map<String, Double> now(Measure m, String panelId) {
    return PanelValues.at(
        fleet.backend, fleet.now(), m, Dashboards.panel(panelId).level(), Filters.NONE);
  }

  private static Map<String, Double> panelNow(String panelId) {
    return PanelValues.panel(fleet.backend, fleet.now(), panelId, 0, Filters.NONE);
  }

  @Test
  void podDecodeTimePerTokenIsDecodeSecondsOverTokensAfterTheFirst() {
    Map<String, Double> panel = panelNow("pod.decode_per_token");
    assertThat(panel).containsOnlyKeys(truth.pods());
    for (String pod : truth.pods()) {
      double[] d = truth.delta(pod);
      assertThat(d[1] - d[2]).as(pod + " decoded tokens").isPositive();
      double expected = d[0] / (d[1] - d[2]);
      assertThat(panel.get(pod)).as(pod).isCloseTo(expected, within(expected * 1e-9));
    }
  }

  @Test
  void theModelDividesOnlyTheTokensOfEnginesThatMeasureDecodeTime() {
    double[] sum = truth.total();
    double expected = sum[0] / (sum[1] - sum[2]);
    // the SGLang pod's generated tokens are left out: it has no decode-time histogram
    assertThat(panelNow("model.decode_per_token").get(MODEL))
        .isCloseTo(expected, within(expected * 1e-9));
  }

  @Test
  void underSpeculativeDecodingItlIsPerStepAndLongerThanTimePerToken() {
    Map<String, Double> perToken = panelNow("pod.decode_per_token");
    Map<String, Double> itl =
        now(new Measure.Mean(dev.infermon.llm.signals.Signal.ITL), "pod.tpot");
    for (String pod : truth.pods()) {
      double[] d = truth.delta(pod);
      assertThat(itl.get(pod)).as(pod).isCloseTo(d[3] / d[4], within(d[3] / d[4] * 1e-9));
      double acceptanceLength = 1 + d[6] / d[5];
      assertThat(acceptanceLength).as(pod).isGreaterThan(1.5);
      // ITL's sum is the decode time and its count the verify steps: per step, not per token
      assertThat(itl.get(pod) / perToken.get(pod))
          .as(pod)
          .isCloseTo(acceptanceLength, within(0.15 * acceptanceLength));
    }
  }

  @ParameterizedTest
  @CsvSource({"model.decode_per_token", "pod.decode_per_token"})
  void thePanelsHaveDataAndSayWhatSglangLacks(String id) {
    PanelResult r =
        service
            .render(DashboardRequest.of(Filters.NONE, fleet.now() - 300_000, fleet.now()))
            .stream()
            .filter(p -> p.panel().id().equals(id))
            .findFirst()
            .orElseThrow();
    assertThat(r.queries().get(0).series()).as(id).isNotEmpty();
    assertThat(r.status()).as(id).isEqualTo(PanelResult.Status.PARTIAL);
    assertThat(r.reasons())
        .as(id)
        .anySatisfy(
            e -> {
              assertThat(e.engine()).isEqualTo("sglang");
              assertThat(e.kind()).isEqualTo(EmptyReason.Kind.NOT_EXPOSED);
            });
  }
}
