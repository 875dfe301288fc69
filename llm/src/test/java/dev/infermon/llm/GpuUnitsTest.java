package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.signals.Signal;
import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each GPU exporter's families reach a GPU signal in the signal's unit: a family read unscaled is
 * catalogued in that unit (AMD's gpu_used_vram is amdsmi's "MB", bytes / (1024 * 1024), so MiB like
 * dcgm-exporter's FB_USED), and a scaled one in another. Gauges only (a counter is read through its
 * rate); the GPU count reads any family, so its unit is not the family's.
 */
class GpuUnitsTest {
  @Test
  void aFamilyReadUnscaledIsInTheSignalsUnit() {
    List<String> checked = new ArrayList<>();
    for (EngineCatalog exporter : Catalog.builtIn().gpuExporters()) {
      for (Map.Entry<Signal, List<SignalSource>> e : exporter.signals().entrySet()) {
        Signal signal = e.getKey();
        if (signal == Signal.GPU_COUNT) {
          continue;
        }
        for (SignalSource source : e.getValue()) {
          for (String metric : source.metrics()) {
            for (MetricEntry m : exporter.entries(metric)) {
              if (m.type() != MetricType.GAUGE) {
                continue; // a counter is read through rate(): its unit per second
              }
              String where = exporter.engine() + " " + metric + " -> " + signal;
              if (source.scale() == 1) {
                assertThat(m.unit()).as(where).isEqualTo(signal.unit());
              } else {
                assertThat(m.unit()).as(where).isNotEqualTo(signal.unit());
              }
              checked.add(where);
            }
          }
        }
      }
    }
    assertThat(checked)
        .contains(
            "amdgpu gpu_used_vram -> GPU_MEMORY_USED",
            "dcgm DCGM_FI_DEV_FB_USED -> GPU_MEMORY_USED");
  }
}
