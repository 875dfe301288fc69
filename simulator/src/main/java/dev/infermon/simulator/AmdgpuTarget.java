package dev.infermon.simulator;

import dev.infermon.simulator.amdgpu.AmdExporter;

/** The AMD device-metrics-exporter pod of one MI300X node. Not thread-safe. */
final class AmdgpuTarget extends SimTarget {
  private final AmdExporter exporter;

  AmdgpuTarget(PodInfo info, AmdExporter exporter) {
    super(info);
    this.exporter = exporter;
  }

  AmdExporter exporter() {
    return exporter;
  }

  @Override
  void advanceTo(double epochSeconds) {
    // the GPUs follow their pods' engines; the exporter reads them when scraped
  }

  @Override
  String render(double epochSeconds) {
    return exporter.render(epochSeconds);
  }
}
