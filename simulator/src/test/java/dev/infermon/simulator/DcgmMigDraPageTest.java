package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.PageChecker.Sample;
import dev.infermon.simulator.dcgm.DcgmExporter;
import dev.infermon.simulator.dcgm.Gpu;
import dev.infermon.simulator.model.GpuActivity;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * MIG instances and DRA attribution on the simulated dcgm-exporter page, against
 * NVIDIA/dcgm-exporter's render template and Kubernetes attribution (render_metrics.go,
 * kubernetes.go at d5e5f51) and the DRA example of kubernetes/website's
 * KubeletPodResourcesDynamicResources page.
 */
class DcgmMigDraPageTest {
  private static final String MODEL = "NVIDIA H100 80GB HBM3";

  private static Gpu slice(int id, String pod, double busy, double memory) {
    return new Gpu(
        0,
        "GPU-0000",
        "00000000:18:00.0",
        MODEL,
        pod == null ? null : new Gpu.Attribution("inference", pod, "vllm"),
        () -> new GpuActivity.Reading(60, 60 * busy, 60 * busy, 60 * busy, 0, 0),
        () -> memory,
        false,
        new Gpu.MigSlice("1g.10gb", id, 1, 7, 10240));
  }

  /** The first collection: the readings since zero are the ratios the activity says. */
  private static Page render(DcgmExporter e) {
    return PageChecker.strict(e.render(Fixtures.T0));
  }

  @Test
  void aMigInstanceCarriesItsProfileAndIdBetweenModelNameAndTheNodeAndItsPod() {
    DcgmExporter e =
        new DcgmExporter(
            "gpu-node-00",
            List.of(slice(1, "vllm-a-0", 0.5, 4000), slice(2, null, 0, 1)),
            false,
            "Hostname");
    Page page = render(e);
    List<Sample> util = page.family("DCGM_FI_DEV_FB_USED").samples;
    assertThat(util.get(0).labelNames())
        .containsExactly(
            "gpu",
            "UUID",
            "pci_bus_id",
            "device",
            "modelName",
            "GPU_I_PROFILE",
            "GPU_I_ID",
            "Hostname",
            "DCGM_FI_DRIVER_VERSION",
            "container",
            "namespace",
            "pod",
            "pod_uid");
    assertThat(util.get(0).label("GPU_I_PROFILE")).isEqualTo("1g.10gb");
    assertThat(util.get(0).label("GPU_I_ID")).isEqualTo("1");
    assertThat(util.get(0).label("pod")).isEqualTo("vllm-a-0");
    assertThat(util.get(1).labelNames()).doesNotContain("pod").contains("GPU_I_ID");
    assertThat(util.get(1).label("UUID")).isEqualTo(util.get(0).label("UUID"));
  }

  /**
   * Device-level fields repeat the GPU's reading on each instance (#257, #50), the GPU's power
   * follows the load of all its instances, and GPU_UTIL reads 0 on an instance (#216).
   */
  @Test
  void instancesOfOneGpuShareItsPowerAndEnergyAndReadNoGpuUtil() {
    DcgmExporter busyAndIdle =
        new DcgmExporter(
            "gpu-node-00",
            List.of(slice(1, "vllm-a-0", 0.7, 4000), slice(2, "vllm-b-0", 0, 3000)),
            false,
            "Hostname");
    Page page = render(busyAndIdle);
    for (String f :
        List.of(
            "DCGM_FI_DEV_POWER_USAGE",
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
            "DCGM_FI_DEV_GPU_TEMP",
            "DCGM_FI_DEV_SM_CLOCK")) {
      assertThat(page.value(f, "GPU_I_ID", "1")).as(f).isEqualTo(page.value(f, "GPU_I_ID", "2"));
    }
    assertThat(page.value("DCGM_FI_DEV_GPU_UTIL", "GPU_I_ID", "1")).isZero();
    assertThat(page.value("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "GPU_I_ID", "1")).isEqualTo(0.7);
    assertThat(page.value("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "GPU_I_ID", "2")).isZero();
    assertThat(page.value("DCGM_FI_DEV_FB_USED", "GPU_I_ID", "1")).isEqualTo(4000);
    assertThat(page.value("DCGM_FI_DEV_FB_FREE", "GPU_I_ID", "1")).isEqualTo(10240 - 4000);
    // one busy 1/7 instance loads the GPU by 1/7 of a whole busy GPU's dynamic power
    DcgmExporter idle =
        new DcgmExporter(
            "gpu-node-00",
            List.of(slice(1, "vllm-a-0", 0, 1), slice(2, "vllm-b-0", 0, 1)),
            false,
            "Hostname");
    double idleWatts = render(idle).value("DCGM_FI_DEV_POWER_USAGE", "GPU_I_ID", "1");
    double busyWatts = page.value("DCGM_FI_DEV_POWER_USAGE", "GPU_I_ID", "1");
    assertThat(busyWatts).isGreaterThan(idleWatts);
    assertThat(busyAndIdle.deviceEnergyMillijoules())
        .isEqualTo(page.value("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "GPU_I_ID", "1"));
  }

  @Test
  void draAttributionWritesTheClaimLabelsOfTheKubernetesExampleAndNoPodUid() {
    Gpu gpu =
        new Gpu(
            0,
            "GPU-0000",
            "00000000:18:00.0",
            MODEL,
            new Gpu.Attribution("gpu-test3", "pod1", "ctr"),
            () -> GpuActivity.Reading.ZERO,
            () -> 1,
            false);
    Page page =
        PageChecker.strict(
            new DcgmExporter("gpu-node-00", List.of(gpu), false, "Hostname", true)
                .render(Fixtures.T0));
    Sample s = page.family("DCGM_FI_PROF_PCIE_RX_BYTES").samples.get(0);
    // the example's label names in its order; that exporter ran without the driver label field
    List<String> example =
        List.of(
            "gpu",
            "UUID",
            "pci_bus_id",
            "device",
            "modelName",
            "Hostname",
            "container",
            "dra_claim_name",
            "dra_claim_namespace",
            "dra_device_name",
            "dra_driver_name",
            "dra_pool_name",
            "namespace",
            "pod");
    assertThat(s.labelNames().stream().filter(l -> !l.equals("DCGM_FI_DRIVER_VERSION")).toList())
        .isEqualTo(example);
    assertThat(s.label("dra_driver_name")).isEqualTo("gpu.nvidia.com");
    assertThat(s.label("dra_pool_name")).isEqualTo("gpu-node-00");
    assertThat(s.label("dra_claim_namespace")).isEqualTo("gpu-test3");
    assertThat(s.label("dra_device_name")).isEqualTo("gpu-0");
  }

  @Test
  void aMigFleetPutsEachOneGpuPodOnAnInstanceAndFillsAGpuFirst() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(3)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of("org/model-a"))
            .dcgmAttribution(DcgmAttribution.mig("1g.10gb"))
            .build();
    Fleet fleet = Fleet.create(config, 1_790_000_000_000L);
    fleet.advance(Duration.ofSeconds(60));
    Page page = PageChecker.strict(fleet.render("nvidia-dcgm-exporter-gpu-node-00").orElseThrow());
    Map<String, String> podToInstance = new HashMap<>();
    Set<String> instances = new TreeSet<>();
    for (Sample s : page.family("DCGM_FI_DEV_FB_USED").samples) {
      if (s.label("GPU_I_ID") != null) {
        assertThat(s.label("gpu")).isEqualTo("0");
        instances.add(s.label("GPU_I_ID"));
        if (s.label("pod") != null) {
          podToInstance.put(s.label("pod"), s.label("GPU_I_ID"));
        }
      }
    }
    assertThat(instances).hasSize(7);
    assertThat(podToInstance).hasSize(3);
    assertThat(new TreeSet<>(podToInstance.values())).hasSize(3);
    for (PodInfo p : fleet.inventory()) {
      if (p.backend() != Backend.DCGM) {
        assertThat(podToInstance).containsKey(p.name());
      }
    }
  }

  @Test
  void unknownProfilesAndDraWithMigAreRefused() {
    assertThatThrownBy(() -> DcgmAttribution.mig("5g.50gb"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("5g.50gb");
    assertThatThrownBy(() -> new DcgmAttribution("1g.10gb", true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DRA");
    Gpu mig = slice(1, "vllm-a-0", 0, 1);
    assertThatThrownBy(() -> new DcgmExporter("n", List.of(mig), false, "Hostname", true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DRA");
  }
}
