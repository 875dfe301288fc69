package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.capacity.CapacityService;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.report.Report;
import dev.infermon.llm.report.ReportRequest;
import dev.infermon.llm.report.ReportService;
import dev.infermon.llm.report.ReportText;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.vllm.VllmSleep;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code infermon report} tells a model's GPU time asleep (vLLM sleep mode) from its idle time, on
 * H100s under dcgm-exporter and on MI300Xs under AMD's exporter alike: one model on two pods, one
 * of them asleep for the last 7 minutes of the 10-minute window. The report says the asleep and the
 * idle GPU-seconds the simulator's truth gives.
 */
class ReportSleepTest {
  private static final String MODEL = "org/model-a";

  /** The report's shortest window: one period of 10 minutes. */
  private static final long WINDOW_MS = 600_000;

  private static final long STEP_MS = EfficiencyService.step(WINDOW_MS);

  @ParameterizedTest(name = "AMD nodes: {0}")
  @ValueSource(ints = {0, 1})
  void theReportSaysAsleepApartFromIdle(int amdNodes) {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(MODEL))
            .vllmSleep(new VllmSleep(1, 2, 300, 3600))
            .amdNodes(amdNodes)
            .build();
    SimulatedFleet fleet = new SimulatedFleet(config, false);
    Map<Long, int[]> running = new TreeMap<>();
    fleet.run(
        Duration.ofMinutes(12),
        snap -> {
          int[] r = new int[2];
          for (int i = 0; i < 2; i++) {
            r[i] = fleet.fleet.pods().get(i).engines().get(0).state().running();
          }
          running.put(snap.timeMillis(), r);
        });
    long end = fleet.now();
    double asleep = 0;
    double idle = 0;
    for (long t = end - WINDOW_MS + STEP_MS; t <= end; t += STEP_MS) {
      for (int i = 0; i < 2; i++) {
        PodInfo p = fleet.fleet.pods().get(i).info();
        if (((VllmPod) fleet.fleet.pods().get(i)).sleepLevel(t / 1000.0) > 0) {
          asleep += p.gpus() * STEP_MS / 1000.0;
        } else if (running.get(t)[i] == 0) {
          idle += p.gpus() * STEP_MS / 1000.0;
        }
      }
    }
    assertThat(asleep).isPositive();
    String exporter = amdNodes == 0 ? "dcgm" : "amdgpu";
    assertThat(fleet.fleet.inventory())
        .anyMatch(
            i ->
                i.backend().label().equals(exporter)
                    && i.node().equals(fleet.fleet.pods().get(0).info().node()));

    InventoryService inventories = new InventoryService(Catalog.builtIn(), fleet.backend);
    ReportService service =
        new ReportService(
            fleet.backend,
            inventories,
            new DiagnosisService(fleet.backend, inventories),
            new CapacityService(fleet.backend, inventories),
            new EfficiencyService(
                fleet.backend,
                inventories,
                () -> new LlmConfig.Cost("USD", Optional.empty(), Map.of())),
            () -> LlmConfig.Alerts.DEFAULT,
            List::of);
    Report r = service.report(ReportRequest.of(end, WINDOW_MS, MODEL));
    String text = ReportText.text(r);
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "GPU time: (\\S+) GPU-s, idle (\\S+) GPU-s, asleep (\\S+) GPU-s")
            .matcher(text);
    assertThat(m.find()).as(text).isTrue();
    double gpus = fleet.fleet.pods().get(0).info().gpus() + fleet.fleet.pods().get(1).info().gpus();
    // four significant digits
    assertThat(Double.parseDouble(m.group(1)))
        .as(text)
        .isCloseTo(gpus * WINDOW_MS / 1000.0, withinPercentage(0.1));
    assertThat(Double.parseDouble(m.group(2))).isCloseTo(idle, withinPercentage(0.1));
    assertThat(Double.parseDouble(m.group(3))).isCloseTo(asleep, withinPercentage(0.1));
    // and the worst period names the sleeping pod as asleep, not as idle
    assertThat(text)
        .contains("asleep inference/" + fleet.fleet.pods().get(0).info().name() + ": 1 engine(s)");
  }
}
