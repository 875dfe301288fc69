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
 */
public record Gpu(
    int index,
    String uuid,
    String pciBusId,
    String modelName,
    Attribution attribution,
    Supplier<GpuActivity.Reading> activity,
    DoubleSupplier memoryUsedMiB,
    boolean tensorParallel) {

  /**
   * The pod a GPU is allocated to, as the kubelet pod-resources API reports it.
   *
   * @param namespace {@code namespace}
   * @param pod {@code pod}
   * @param container {@code container}
   */
  public record Attribution(String namespace, String pod, String container) {}

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
