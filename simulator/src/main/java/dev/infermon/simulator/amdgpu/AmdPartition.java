package dev.infermon.simulator.amdgpu;

import java.util.Locale;

/**
 * An MI300X's compute partition mode, as the exporter's {@code gpu_compute_partition_type} label
 * writes it: the number of logical GPUs (partitions) one physical GPU shows as, each its own {@code
 * gpu_id} (aac.amd.com/help/bare-metal/gpu-partitioning: SPX 1, DPX 2, QPX 4, CPX 8 logical GPUs
 * per physical GPU; the MI300X quick-start guide, instinct.docs.amd.com gpu-partitioning/mi300x:
 * "CPX mode creates eight independent compute partitions per GPU").
 */
public enum AmdPartition {
  SPX(1),
  DPX(2),
  QPX(4),
  CPX(8);

  private final int partitions;

  AmdPartition(int partitions) {
    this.partitions = partitions;
  }

  /** Logical GPUs per physical GPU. */
  public int partitions() {
    return partitions;
  }

  /** The label value ({@code spx}, {@code cpx}, ...). */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The mode named {@code name} (case-insensitive).
   *
   * @throws IllegalArgumentException naming the value and the modes
   */
  public static AmdPartition parse(String name) {
    for (AmdPartition p : values()) {
      if (p.label().equalsIgnoreCase(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "AMD compute partition must be one of spx, dpx, qpx, cpx, got \"" + name + "\"");
  }
}
