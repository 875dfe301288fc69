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
   * Per step: vLLM pod -> [decode seconds, generated tokens, finished requests, ITL sum, ITL count,
   * drafts, accepted] over its engines.
   */
  private static final Map<Long, Map<String, double[]>> truth = new HashMap<>();

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
    fleet.run(
        Duration.ofMinutes(8),
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            if (p instanceof VllmPod) {
              double[] v = new double[7];
              for (int i = 0; i < p.engines().size(); i++) {
                VllmMetrics m = ((VllmPod) p).metrics(i);
                v[0] += m.decodeTime().sum();
                v[1] += m.requestGenerationTokens().sum();
                v[2] += m.requestGenerationTokens().count();
                v[3] += m.interTokenLatency().sum();
                v[4] += m.interTokenLatency().count();
                v[5] += m.specDrafts();
                v[6] += m.specAccepted();
              }
              at.put(p.info().name(), v);
            }
          }
          truth.put(snap.timeMillis(), at);
        });
    service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
  }

  private static Map<String, Double> now(Measure m, String panelId) {
    Panel p = Dashboards.panel(panelId);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            Map.of(),
            0.95,
            "5m",
            Presence.of(service.inventory(fleet.now()).families()));
    String q = new PromqlCompiler(CATALOG).compile(m, p.level(), o).orElseThrow();
    Vector v = (Vector) fleet.backend.instantQuery(q, fleet.now()).value();
    String key = p.level().groupBy().get(p.level().groupBy().size() - 1);
    Map<String, Double> out = new HashMap<>();
    for (Sample s : v.samples()) {
      out.put(s.labels().get(key), s.value());
    }
    return out;
  }

  private static Map<String, Double> panelNow(String panelId) {
    return now(Dashboards.panel(panelId).queries().get(0).measure(), panelId);
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

  @Test
  void podDecodeTimePerTokenIsDecodeSecondsOverTokensAfterTheFirst() {
    Map<String, Double> panel = panelNow("pod.decode_per_token");
    assertThat(panel).containsOnlyKeys(truth.get(fleet.now()).keySet());
    for (String pod : truth.get(fleet.now()).keySet()) {
      double[] d = delta(pod);
      assertThat(d[1] - d[2]).as(pod + " decoded tokens").isPositive();
      double expected = d[0] / (d[1] - d[2]);
      assertThat(panel.get(pod)).as(pod).isCloseTo(expected, within(expected * 1e-9));
    }
  }

  @Test
  void theModelDividesOnlyTheTokensOfEnginesThatMeasureDecodeTime() {
    double[] sum = new double[3];
    for (String pod : truth.get(fleet.now()).keySet()) {
      double[] d = delta(pod);
      for (int i = 0; i < sum.length; i++) {
        sum[i] += d[i];
      }
    }
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
    for (String pod : truth.get(fleet.now()).keySet()) {
      double[] d = delta(pod);
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
