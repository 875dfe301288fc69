package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.simulator.PageChecker.Family;
import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.PageChecker.Sample;
import dev.infermon.simulator.amdgpu.AmdExporter;
import dev.infermon.simulator.amdgpu.AmdPartition;
import dev.infermon.simulator.dcgm.Gpu;
import dev.infermon.simulator.model.GpuActivity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The simulated AMD device-metrics-exporter page is shaped as client_golang writes the real one
 * (ROCm/device-metrics-exporter gpuagent_gpu_metrics.go @ afd0fe8): families in name order, all
 * gauges, the mandatory labels in name order with empty attribution labels on an idle GPU, and
 * values that follow the GPU activity model.
 */
class AmdPageShapeTest {
  /** The labels every GPU series carries (gpuMandatoryLables), in name order. */
  private static final List<String> LABELS =
      List.of(
          "card_model",
          "container",
          "deployment_mode",
          "gpu_compute_partition_type",
          "gpu_id",
          "gpu_memory_partition_type",
          "gpu_partition_id",
          "hostname",
          "job_id",
          "job_partition",
          "job_user",
          "namespace",
          "pod",
          "serial_number");

  private static double[] busy = {0, 0};

  private static AmdExporter exporter() {
    Gpu attributed =
        new Gpu(
            0,
            "GPU-0000",
            "00000000:18:00.0",
            AmdExporter.MI300X_CARD_MODEL,
            new Gpu.Attribution("inference", "vllm-a-0", "vllm"),
            () ->
                new GpuActivity.Reading(busy[0], busy[1], busy[1] / 2, 0, busy[1] / 3, busy[1] / 2),
            () -> 81559 * 0.9,
            false);
    Gpu idle =
        new Gpu(
            1,
            "GPU-0001",
            "00000000:2A:00.0",
            AmdExporter.MI300X_CARD_MODEL,
            null,
            () -> GpuActivity.Reading.ZERO,
            () -> 1,
            false);
    return new AmdExporter("gpu-node-00", List.of(attributed, idle));
  }

  @Test
  void familiesAreGaugesInNameOrderWithTheSourcesHelp() {
    busy = new double[] {60, 45};
    Page page = PageChecker.strict(exporter().render(Fixtures.T0));
    List<String> names = new ArrayList<>(page.families.keySet());
    assertThat(names).isSorted();
    assertThat(names)
        .contains(
            "gpu_gfx_activity",
            "gpu_umc_activity",
            "gpu_used_vram",
            "gpu_total_vram",
            "gpu_power_usage",
            "gpu_energy_consumed");
    for (Family f : page.families.values()) {
      assertThat(f.type).as(f.name).isEqualTo("gauge");
    }
    assertThat(page.family("gpu_energy_consumed").help)
        .isEqualTo("Accumulated energy consumed by the GPU in uJ");
    assertThat(page.family("gpu_used_vram").help).isEqualTo("Used VRAM memory of the GPU (in MB)");
  }

  @Test
  void everyGpuSeriesHasTheMandatoryLabelsAndIdleOnesEmptyAttribution() {
    busy = new double[] {60, 45};
    String text = exporter().render(Fixtures.T0);
    Page page = PageChecker.strict(text);
    List<Sample> s = page.family("gpu_gfx_activity").samples;
    assertThat(s).hasSize(2);
    for (Sample x : s) {
      assertThat(x.labelNames()).isEqualTo(LABELS);
    }
    // client_golang orders series by label values: the idle GPU's empty container comes first
    assertThat(s.get(0).label("gpu_id")).isEqualTo("1");
    assertThat(s.get(0).label("pod")).isEmpty();
    assertThat(s.get(1).label("pod")).isEqualTo("vllm-a-0");
    assertThat(s.get(1).label("namespace")).isEqualTo("inference");
    assertThat(text).contains("card_model=\"102-G30211-0C\",container=\"\",");
  }

  @Test
  void valuesFollowTheLoadAndGosFloatFormat() {
    busy = new double[] {60, 45};
    AmdExporter e = exporter();
    Page first = PageChecker.strict(e.render(Fixtures.T0));
    assertThat(first.value("gpu_gfx_activity", "gpu_id", "0")).isEqualTo(75); // 45 s of 60
    assertThat(first.value("gpu_gfx_activity", "gpu_id", "1")).isZero();
    assertThat(first.value("gpu_total_vram", "gpu_id", "0")).isEqualTo(196608);
    // the engine's 90% of an 80 GB framebuffer is 90% of the MI300X's 192 GiB
    assertThat(first.value("gpu_used_vram", "gpu_id", "0")).isCloseTo(196608 * 0.9, within(1.0));
    assertThat(
            first.value("gpu_free_vram", "gpu_id", "0")
                + first.value("gpu_used_vram", "gpu_id", "0"))
        .isEqualTo(196608);
    double e0 = first.value("gpu_energy_consumed", "gpu_id", "0");
    busy = new double[] {75, 60};
    String text = e.render(Fixtures.T0 + 15);
    Page second = PageChecker.strict(text);
    double watts = second.value("gpu_power_usage", "gpu_id", "0");
    assertThat(watts).isGreaterThan(second.value("gpu_power_usage", "gpu_id", "1"));
    assertThat(second.value("gpu_energy_consumed", "gpu_id", "0") - e0)
        .isCloseTo(watts * 15 * 1e6, within(1.0));
    assertThat(e.energyMicrojoules("vllm-a-0"))
        .isEqualTo(second.value("gpu_energy_consumed", "gpu_id", "0"));
    // micro-joules since boot pass 1e6: Go's shortest %g writes them with an exponent
    assertThat(text).containsPattern("gpu_energy_consumed\\{[^}]*\\} \\d\\.\\d+e\\+\\d\\d\\n");
    assertThat(text).containsPattern("gpu_total_vram\\{[^}]*\\} 196608\\n");
  }

  /** One MI300X in CPX: partitions 0 and 1 busy (two pods), the other six idle. */
  private static AmdExporter cpx(double[] busy0, double[] busy1) {
    List<Gpu> parts = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      double[] b = i == 0 ? busy0 : i == 1 ? busy1 : null;
      parts.add(
          new Gpu(
              i,
              "GPU-000" + i,
              "00000000:18:00." + i,
              AmdExporter.MI300X_CARD_MODEL,
              b == null ? null : new Gpu.Attribution("inference", "vllm-" + i, "vllm"),
              b == null
                  ? () -> GpuActivity.Reading.ZERO
                  : () -> new GpuActivity.Reading(b[0], b[1], b[1] / 2, 0, b[1] / 3, b[1] / 2),
              () -> b == null ? 1 : 81559 * 0.9,
              false));
    }
    return new AmdExporter("gpu-node-00", parts, AmdPartition.CPX);
  }

  @Test
  void aCpxGpuIsEightGpuIdsOnlyThePrimaryReportingActivityPowerAndEnergy() {
    double[] b0 = {60, 45};
    double[] b1 = {60, 15};
    AmdExporter e = cpx(b0, b1);
    Page first = PageChecker.strict(e.render(Fixtures.T0));
    List<Sample> vram = first.family("gpu_used_vram").samples;
    assertThat(vram).hasSize(8);
    for (Sample x : vram) {
      assertThat(x.labelNames()).isEqualTo(LABELS);
      assertThat(x.label("gpu_compute_partition_type")).isEqualTo("cpx");
      assertThat(x.label("gpu_partition_id")).isEqualTo(x.label("gpu_id"));
      // a partition reports its parent GPU's serial number
      assertThat(x.label("serial_number")).isEqualTo(vram.get(0).label("serial_number"));
    }
    // the physical GPU's activity, on partition 0: (45 + 15) s of 8 x 60 s
    assertThat(first.value("gpu_gfx_activity", "gpu_id", "0")).isEqualTo(13);
    assertThat(first.value("gpu_gfx_activity", "gpu_id", "1")).isZero();
    assertThat(first.value("gpu_power_usage", "gpu_id", "0")).isGreaterThan(140);
    assertThat(first.value("gpu_power_usage", "gpu_id", "1")).isZero();
    assertThat(first.value("gpu_package_power", "gpu_id", "1")).isZero();
    for (String sensor :
        List.of("gpu_energy_consumed", "gpu_junction_temperature", "gpu_memory_temperature")) {
      assertThat(first.family(sensor).samples)
          .as(sensor + " on the primary partition only")
          .singleElement()
          .satisfies(x -> assertThat(x.label("gpu_id")).isEqualTo("0"));
    }
    assertThat(first.value("gpu_total_vram", "gpu_id", "3")).isEqualTo(196608 / 8);
    b0[0] = 75;
    b0[1] = 60;
    b1[0] = 75;
    b1[1] = 20;
    Page second = PageChecker.strict(e.render(Fixtures.T0 + 15));
    double device = second.value("gpu_energy_consumed", "gpu_id", "0");
    // each pod's share of its GPU's energy: one eighth per partition held
    assertThat(e.energyMicrojoules("vllm-1")).isEqualTo(device / 8);
    assertThat(e.energyMicrojoules("vllm-0")).isEqualTo(device / 8);
  }

  @Test
  void partitionsThatAreNotWholeGpusAreRefused() {
    Gpu one =
        new Gpu(
            0,
            "GPU-0000",
            "00000000:18:00.0",
            AmdExporter.MI300X_CARD_MODEL,
            null,
            () -> GpuActivity.Reading.ZERO,
            () -> 1,
            false);
    assertThatThrownBy(() -> new AmdExporter("n", List.of(one), AmdPartition.QPX))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 partitions are not whole GPUs of 4 (qpx)");
    assertThatThrownBy(() -> AmdPartition.parse("npx"))
        .hasMessageContaining("spx, dpx, qpx, cpx, got \"npx\"");
  }

  @Test
  void migInstancesAreRefused() {
    Gpu mig =
        new Gpu(
            0,
            "GPU-0000",
            "00000000:18:00.0",
            AmdExporter.MI300X_CARD_MODEL,
            null,
            () -> GpuActivity.Reading.ZERO,
            () -> 1,
            false,
            new Gpu.MigSlice("1g.10gb", 1, 1, 7, 10240));
    assertThatThrownBy(() -> new AmdExporter("n", List.of(mig)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MIG");
  }

  @Test
  void aFleetPutsItsFirstNodesOnMi300x() {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(2)
                .dataParallelPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .models(List.of("org/model-a", "org/model-b"))
                .gpusPerNode(1)
                .amdNodes(1)
                .build(),
            1_780_000_000_000L);
    List<PodInfo> exporters =
        fleet.inventory().stream().filter(p -> p.backend().gpuExporter()).toList();
    assertThat(exporters).extracting(PodInfo::backend).contains(Backend.AMDGPU, Backend.DCGM);
    assertThat(exporters.get(0).backend()).isEqualTo(Backend.AMDGPU);
    assertThat(exporters.get(0).targetLabels()).doesNotContainKeys("pod", "namespace");
    InferencePod first = fleet.pods().get(0);
    assertThat(fleet.amdExporter(first.info().name())).isPresent();
    assertThat(fleet.amdExporter(fleet.pods().get(1).info().name())).isEmpty();
    assertThatThrownBy(
            () ->
                FleetConfig.builder()
                    .amdNodes(1)
                    .dcgmAttribution(DcgmAttribution.mig("1g.10gb"))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("amdNodes");
  }
}
