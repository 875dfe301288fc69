package dev.infermon.simulator;

import dev.infermon.simulator.dcgm.DcgmExporter;

/** The dcgm-exporter pod of one node. Not thread-safe. */
final class DcgmTarget extends SimTarget {
  private final DcgmExporter exporter;

  DcgmTarget(PodInfo info, DcgmExporter exporter) {
    super(info);
    this.exporter = exporter;
  }

  DcgmExporter exporter() {
    return exporter;
  }

  @Override
  void advanceTo(double epochSeconds) {
    // the GPUs follow their pods' engines; the exporter itself only samples when rendering
  }

  @Override
  String render(double epochSeconds) {
    return exporter.render(epochSeconds);
  }
}
