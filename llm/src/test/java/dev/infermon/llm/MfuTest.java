package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.llm.dashboard.Filters;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The MFU panels against the simulator's own {@code --enable-mfu-metrics} counters: two current
 * vLLM pods, one with two data-parallel engines, on the simulated fleet's H100 SXM GPUs (dense BF16
 * peak 989.4 TFLOP/s, 3,350 GB/s in gpu-peaks.yaml). The counters are per GPU of an engine, so a
 * pod's figure is the mean over its engines: a sum would double the two-engine pod's.
 */
class MfuTest {
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final double H100_FLOPS = 989.4e12;
  private static final double H100_BYTES = 3350e9;
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

  /** Per pod, summed over its engines: [FLOPs, bytes read, bytes written, engines]. */
  private static VllmTruth truth;

  @BeforeAll
  static void run() {
    fleet = new SimulatedFleet(SMALL.mfu(true).build(), false);
    truth =
        new VllmTruth(
            fleet,
            Duration.ofMinutes(6),
            m -> new double[] {m.flops(), m.readBytes(), m.writeBytes(), 1});
  }

  private static Map<String, Double> panelNow(SimulatedFleet f, String panelId) {
    return PanelValues.panel(f.backend, f.now(), panelId, 0, Filters.NONE);
  }

  /** {@code pod}'s FLOP/s and bytes/s per GPU: its engines' gains averaged, over the window. */
  private static double[] perGpuRates(String pod) {
    double[] d = truth.delta(pod);
    double engines = truth.at(pod)[3];
    return new double[] {d[0] / engines / 285.0, (d[1] + d[2]) / engines / 285.0};
  }

  @Test
  void achievedFlopsPerGpuIsTheMeanOverThePodsEngines() {
    Map<String, Double> panel = panelNow(fleet, "efficiency_pod.flops");
    assertThat(panel).hasSize(2);
    assertThat(truth.pods()).anySatisfy(p -> assertThat(truth.at(p)[3]).isEqualTo(2));
    for (String pod : truth.pods()) {
      double want = perGpuRates(pod)[0];
      assertThat(want).as(pod + " worked").isPositive();
      assertThat(panel.get(pod)).as(pod).isCloseTo(want, within(want * 1e-9));
    }
  }

  @Test
  void mfuIsAchievedOverTheGpusDenseBf16Peak() {
    Map<String, Double> panel = panelNow(fleet, "efficiency_pod.mfu");
    assertThat(panel).hasSize(2);
    for (String pod : truth.pods()) {
      double want = perGpuRates(pod)[0] / H100_FLOPS;
      assertThat(panel.get(pod)).as(pod).isCloseTo(want, within(want * 1e-9));
      assertThat(panel.get(pod)).as(pod + " is a share").isBetween(0.0, 1.0);
    }
  }

  @Test
  void bandwidthUtilisationAddsReadAndWrittenBytes() {
    Map<String, Double> panel = panelNow(fleet, "efficiency_pod.mbu");
    for (String pod : truth.pods()) {
      double want = perGpuRates(pod)[1] / H100_BYTES;
      assertThat(want).as(pod).isPositive();
      assertThat(panel.get(pod)).as(pod).isCloseTo(want, within(want * 1e-9));
    }
  }

  @Test
  void theModelAveragesItsPodsPerGpuFigures() {
    double sum = 0;
    for (String pod : truth.pods()) {
      sum += perGpuRates(pod)[0] / H100_FLOPS;
    }
    double want = sum / truth.pods().size();
    assertThat(panelNow(fleet, "efficiency.mfu").get(MODEL)).isCloseTo(want, within(want * 1e-9));
  }

  @Test
  void withoutTheFlagTheRegisteredCountersStayAtZero() {
    SimulatedFleet off = new SimulatedFleet(SMALL.mfu(false).build(), false);
    off.run(Duration.ofMinutes(6));
    Map<String, Double> mfu = panelNow(off, "efficiency_pod.mfu");
    assertThat(mfu).hasSize(2).allSatisfy((pod, v) -> assertThat(v).as(pod).isZero());
    assertThat(panelNow(off, "pod.tokens")).allSatisfy((pod, v) -> assertThat(v).isPositive());
  }
}
