package dev.infermon.simulator.dcgm;

import dev.infermon.simulator.model.GpuActivity;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * One GPU on a node: its identity, who it is attributed to, and where its load comes from.
 *
 * @param index the GPU index on the node ({@code gpu})
 * @param uuid {@code UUID}
 * @param pciBusId {@code pci_bus_id}
 * @param modelName {@code modelName}
 * @param attribution the pod holding the GPU, or null when unattributed
 * @param activity cumulative activity of the engine using it (zeros when idle)
 * @param memoryUsedMiB framebuffer in use now
 * @param tensorParallel whether its engine spans several GPUs (NVLink traffic)
 * @param mig the MIG GPU instance this entry is, or null for a whole GPU: under dcgm-exporter's
 *     default {@code -d f} a MIG GPU has only its instances' series (NVIDIA/dcgm-exporter#561),
 *     each carrying the GPU's {@code gpu}, {@code UUID} and {@code modelName}
 */
public record Gpu(
    int index,
    String uuid,
    String pciBusId,
    String modelName,
    Attribution attribution,
    Supplier<GpuActivity.Reading> activity,
    DoubleSupplier memoryUsedMiB,
    boolean tensorParallel,
    MigSlice mig) {

  /** A whole GPU (no MIG). */
  public Gpu(
      int index,
      String uuid,
      String pciBusId,
      String modelName,
      Attribution attribution,
      Supplier<GpuActivity.Reading> activity,
      DoubleSupplier memoryUsedMiB,
      boolean tensorParallel) {
    this(
        index,
        uuid,
        pciBusId,
        modelName,
        attribution,
        activity,
        memoryUsedMiB,
        tensorParallel,
        null);
  }

  /**
   * A MIG GPU instance (NVIDIA MIG user guide, "Supported MIG Profiles": a profile {@code
   * <N>g.<M>gb} holds N of the GPU's compute slices and M GB of its memory).
   *
   * @param profile {@code GPU_I_PROFILE}, e.g. {@code 1g.10gb}
   * @param instanceId {@code GPU_I_ID}
   * @param slices the compute slices it holds (N)
   * @param gpuSlices the compute slices of the whole GPU (7 on an H100)
   * @param memoryMiB its memory
   */
  public record MigSlice(
      String profile, int instanceId, int slices, int gpuSlices, double memoryMiB) {
    /** Validates. */
    public MigSlice {
      if (profile == null || !profile.matches("[1-7]g\\.[0-9]+gb")) {
        throw new IllegalArgumentException("MIG profile must look like 1g.10gb, got " + profile);
      }
      if (instanceId < 0 || slices < 1 || slices > gpuSlices || memoryMiB <= 0) {
        throw new IllegalArgumentException("bad MIG instance " + profile + " id " + instanceId);
      }
    }

    /** Its share of the GPU's compute (the guide's "Fraction of SMs"). */
    public double share() {
      return (double) slices / gpuSlices;
    }
  }

  /**
   * The pod a GPU is allocated to, as the kubelet pod-resources API reports it.
   *
   * @param namespace {@code namespace}
   * @param pod {@code pod}
   * @param container {@code container}
   */
  public record Attribution(String namespace, String pod, String container) {}

  /** Whether this entry is a MIG GPU instance. */
  public boolean isMig() {
    return mig != null;
  }

  /** Validates. */
  public Gpu {
    if (index < 0 || uuid == null || pciBusId == null || modelName == null) {
      throw new IllegalArgumentException("GPU needs an index >= 0, a UUID, a PCI id and a model");
    }
    if (activity == null || memoryUsedMiB == null) {
      throw new IllegalArgumentException("GPU " + index + " needs an activity and memory source");
    }
  }
}
