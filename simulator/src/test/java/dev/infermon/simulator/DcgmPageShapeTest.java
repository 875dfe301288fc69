package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.simulator.PageChecker.Family;
import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.dcgm.DcgmExporter;
import dev.infermon.simulator.dcgm.Gpu;
import dev.infermon.simulator.model.GpuActivity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated dcgm-exporter page has the real pages' families, HELP, types and label order. */
class DcgmPageShapeTest {
  private static DcgmExporter exporter(boolean smFields) {
    return exporter(smFields, "Hostname");
  }

  private static DcgmExporter exporter(boolean smFields, String nodeLabel) {
    Gpu attributed =
        new Gpu(
            0,
            "GPU-0000",
            "00000000:18:00.0",
            "NVIDIA H100 80GB HBM3",
            new Gpu.Attribution("inference", "vllm-a-0", "vllm"),
            () -> new GpuActivity.Reading(60, 45, 30, 20, 15, 25),
            () -> 70000,
            false);
    Gpu idle =
        new Gpu(
            1,
            "GPU-0001",
            "00000000:2A:00.0",
            "NVIDIA H100 80GB HBM3",
            null,
            () -> GpuActivity.Reading.ZERO,
            () -> 1,
            false);
    return new DcgmExporter("gpu-node-00", List.of(attributed, idle), smFields, nodeLabel);
  }

  @Test
  void familiesHelpAndTypesMatchTheGpuOperatorCapture() {
    Page real = PageChecker.lenient(Fixtures.capture("lke-rtx4000ada-pod-attributed-xid.prom"));
    Page sim = PageChecker.strict(exporter(false).render(Fixtures.T0));
    assertThat(new ArrayList<>(sim.families.keySet()))
        .containsExactlyElementsOf(real.families.keySet());
    for (Family r : real.families.values()) {
      assertThat(sim.family(r.name).help).as(r.name).isEqualTo(r.help);
      assertThat(sim.family(r.name).type).as(r.name).isEqualTo(r.type);
    }
  }

  @Test
  void attributedGpusHaveTheCapturesLabelOrderAndIdleOnesNoPodLabels() {
    Page attributedReal =
        PageChecker.lenient(Fixtures.capture("lke-rtx4000ada-pod-attributed-xid.prom"));
    Page idleReal = PageChecker.lenient(Fixtures.capture("upcloud-l40s-single-gpu-no-pod.prom"));
    Page sim = PageChecker.strict(exporter(false).render(Fixtures.T0));
    for (String name : List.of("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_XID_ERRORS")) {
      assertThat(sim.family(name).samples.get(0).labelNames())
          .as(name)
          .isEqualTo(attributedReal.family(name).samples.get(0).labelNames());
    }
    assertThat(sim.family("DCGM_FI_DEV_GPU_UTIL").samples.get(1).labelNames())
        .isEqualTo(idleReal.family("DCGM_FI_DEV_GPU_UTIL").samples.get(0).labelNames());
  }

  @Test
  void valuesFollowTheExportersFormatsAndTheLoad() {
    DcgmExporter e = exporter(true);
    String text = e.render(Fixtures.T0);
    Page page = PageChecker.strict(text);
    assertThat(text).containsPattern("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE\\{[^}]*\\} 0\\.\\d{6}\\n");
    assertThat(text).containsPattern("DCGM_FI_DEV_GPU_UTIL\\{[^}]*\\} \\d+\\n");
    assertThat(page.value("DCGM_FI_DEV_GPU_UTIL", "gpu", "0")).isEqualTo(75); // 45 s of 60
    assertThat(page.value("DCGM_FI_DEV_GPU_UTIL", "gpu", "1")).isZero();
    assertThat(page.value("DCGM_FI_PROF_SM_ACTIVE", "gpu", "0")).isEqualTo(0.5);
    assertThat(page.value("DCGM_FI_DEV_FB_USED", "gpu", "0")).isEqualTo(70000);
    assertThat(page.families.keySet())
        .containsSubsequence(
            "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
            "DCGM_FI_PROF_SM_ACTIVE",
            "DCGM_FI_PROF_SM_OCCUPANCY",
            "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE");
  }

  /** dcgm-exporter main renamed Hostname to hostname (#655, d5e5f51); nothing else moved. */
  @Test
  void mainSpellsTheNodeLabelLowerCaseInTheSamePlace() {
    Page release = PageChecker.strict(exporter(false, "Hostname").render(Fixtures.T0));
    Page main = PageChecker.strict(exporter(false, "hostname").render(Fixtures.T0));
    for (String name : release.families.keySet()) {
      List<String> expected =
          release.family(name).samples.get(0).labelNames().stream()
              .map(l -> l.equals("Hostname") ? "hostname" : l)
              .toList();
      assertThat(main.family(name).samples.get(0).labelNames()).as(name).isEqualTo(expected);
    }
    assertThat(release.family("DCGM_FI_DEV_GPU_UTIL").samples.get(0).labelNames())
        .contains("Hostname");
  }

  @Test
  void anyOtherNodeLabelIsRefused() {
    assertThatThrownBy(() -> exporter(false, "node"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node");
    assertThatThrownBy(() -> FleetConfig.builder().dcgmNodeLabel("HOSTNAME").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dcgmNodeLabel");
  }
}
