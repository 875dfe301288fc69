package dev.infermon.simulator;

import dev.infermon.simulator.amdgpu.AmdExporter;
import dev.infermon.simulator.dcgm.DcgmExporter;
import dev.infermon.simulator.dcgm.Gpu;
import dev.infermon.simulator.model.GpuActivity;
import dev.infermon.simulator.model.Rng;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Places the pods' GPUs first-fit on the nodes, leaves the rest unattributed, and builds one
 * dcgm-exporter per node. Under a MIG layout each one-GPU pod takes one MIG instance, and a GPU
 * holds as many instances of the profile as it can (its idle instances stay unattributed); pods
 * with several GPUs take whole GPUs. The first {@link FleetConfig#amdNodes()} nodes hold MI300X
 * GPUs watched by AMD's device-metrics-exporter instead; under a compute partition mode ({@link
 * FleetConfig#amdPartition()}) each of their GPUs is as many partitions, each placed as a GPU.
 */
final class GpuPlacement {
  static final String GPU_MODEL = "NVIDIA H100 80GB HBM3";
  static final String EXPORTER_NAMESPACE = "gpu-operator";

  /** The AMD GPU operator's namespace (ROCm/device-metrics-exporter docs/installation). */
  static final String AMD_EXPORTER_NAMESPACE = "kube-amd-gpu";

  private static final String[] PCI_BUSES = {"18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"};

  private final FleetConfig config;
  private final DcgmAttribution attribution;

  /** One engine's share of a GPU. */
  private record Slot(InferencePod pod, int engine) {}

  /** One physical GPU: one slot when whole, up to the profile's instances under MIG. */
  private record Device(boolean mig, List<Slot> slots) {}

  private GpuPlacement(FleetConfig config) {
    this.config = config;
    this.attribution = config.dcgmAttribution();
  }

  /** Places {@code pods} (replacing each with itself placed on its node) and adds exporters. */
  static void place(FleetConfig config, List<InferencePod> pods, List<SimTarget> exporters) {
    new GpuPlacement(config).run(pods, exporters);
  }

  private boolean onSlice(InferencePod p) {
    return attribution.isMig() && p.info().gpus() == 1;
  }

  private void run(List<InferencePod> pods, List<SimTarget> exporters) {
    int perNode = config.gpusPerNode();
    int slices = attribution.isMig() ? attribution.instancesPerGpu() : 1;
    int needed = 0;
    int onSlices = 0;
    for (InferencePod p : pods) {
      if (onSlice(p)) {
        onSlices++;
      } else {
        needed += p.info().gpus();
      }
    }
    needed += (onSlices + slices - 1) / slices;
    int nodes =
        Math.max(
            config.amdNodes(),
            config.nodes() > 0 ? config.nodes() : (needed + 1 + perNode - 1) / perNode);
    List<List<Device>> layout = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      layout.add(new ArrayList<>());
    }
    List<InferencePod> placed = new ArrayList<>();
    for (InferencePod p : pods) {
      int node = onSlice(p) ? placeOnSlice(layout, p, perNode, slices) : placeWhole(layout, p);
      if (node < 0) {
        throw new IllegalArgumentException(
            "--nodes "
                + nodes
                + " x "
                + perNode
                + " GPUs cannot hold the fleet's "
                + needed
                + " GPUs");
      }
      p.placeOn(nodeName(node));
      placed.add(p);
    }
    pods.clear();
    pods.addAll(placed);
    for (int n = 0; n < nodes; n++) {
      exporters.add(
          n < config.amdNodes()
              ? amdExporter(nodeName(n), layout.get(n), perNode)
              : exporter(nodeName(n), layout.get(n), perNode));
    }
  }

  /** The GPUs node {@code n} places: an MI300X node's partitions, else its GPUs. */
  private int capacity(int n) {
    return n < config.amdNodes()
        ? config.gpusPerNode() * config.amdPartition().partitions()
        : config.gpusPerNode();
  }

  private int placeWhole(List<List<Device>> layout, InferencePod p) {
    int gpus = p.info().gpus();
    int perNode = config.gpusPerNode();
    if (gpus > perNode) {
      throw new IllegalArgumentException(
          "pod " + p.info().name() + " needs " + gpus + " GPUs but nodes have " + perNode);
    }
    for (int n = 0; n < layout.size(); n++) {
      if (capacity(n) - layout.get(n).size() >= gpus) {
        int tp = p.info().tensorParallel();
        for (int g = 0; g < gpus; g++) {
          layout.get(n).add(new Device(false, List.of(new Slot(p, g / tp))));
        }
        return n;
      }
    }
    return -1;
  }

  private static int placeOnSlice(
      List<List<Device>> layout, InferencePod p, int perNode, int slices) {
    for (int n = 0; n < layout.size(); n++) {
      for (Device d : layout.get(n)) {
        if (d.mig() && d.slots().size() < slices) {
          d.slots().add(new Slot(p, 0));
          return n;
        }
      }
    }
    for (int n = 0; n < layout.size(); n++) {
      if (layout.get(n).size() < perNode) {
        List<Slot> slots = new ArrayList<>();
        slots.add(new Slot(p, 0));
        layout.get(n).add(new Device(true, slots));
        return n;
      }
    }
    return -1;
  }

  private DcgmTarget exporter(String host, List<Device> devices, int perNode) {
    List<Gpu> gpus = new ArrayList<>();
    for (int g = 0; g < perNode; g++) {
      Device d = g < devices.size() ? devices.get(g) : null;
      if (d != null && d.mig()) {
        for (int i = 0; i < attribution.instancesPerGpu(); i++) {
          Slot slot = i < d.slots().size() ? d.slots().get(i) : null;
          gpus.add(gpu(host, g, slot, migSlice(i)));
        }
      } else {
        gpus.add(gpu(host, g, d == null ? null : d.slots().get(0), null));
      }
    }
    PodInfo info =
        new PodInfo(
            "nvidia-dcgm-exporter-" + host,
            EXPORTER_NAMESPACE,
            "nvidia-dcgm-exporter",
            Backend.DCGM,
            "",
            "dcgm-exporter",
            "4.4.1-4.5.2",
            "",
            host,
            perNode,
            1,
            1);
    return new DcgmTarget(
        info,
        new DcgmExporter(
            host, gpus, config.smProfilingFields(), config.dcgmNodeLabel(), attribution.dra()));
  }

  private AmdgpuTarget amdExporter(String host, List<Device> devices, int perNode) {
    List<Gpu> gpus = new ArrayList<>();
    for (int g = 0; g < perNode * config.amdPartition().partitions(); g++) {
      Device d = g < devices.size() ? devices.get(g) : null;
      gpus.add(
          gpu(host, g, d == null ? null : d.slots().get(0), null, AmdExporter.MI300X_CARD_MODEL));
    }
    PodInfo info =
        new PodInfo(
            "amd-metrics-exporter-" + host,
            AMD_EXPORTER_NAMESPACE,
            "amd-metrics-exporter",
            Backend.AMDGPU,
            "",
            "device-metrics-exporter",
            "v1.5.1",
            "",
            host,
            perNode,
            1,
            1);
    return new AmdgpuTarget(info, new AmdExporter(host, gpus, config.amdPartition()));
  }

  /** Instance {@code i} of the profile; ids count from 1 (the simulator's choice, not DCGM's). */
  private Gpu.MigSlice migSlice(int i) {
    return new Gpu.MigSlice(
        attribution.migProfile(),
        i + 1,
        attribution.slices(),
        DcgmAttribution.GPU_SLICES,
        attribution.memoryMiB());
  }

  static String nodeName(int n) {
    return String.format(Locale.ROOT, "gpu-node-%02d", n);
  }

  private Gpu gpu(String host, int index, Slot slot, Gpu.MigSlice mig) {
    return gpu(host, index, slot, mig, GPU_MODEL);
  }

  private Gpu gpu(String host, int index, Slot slot, Gpu.MigSlice mig, String model) {
    long h = Rng.derive(config.seed(), host + "/gpu" + index);
    String hex = String.format(Locale.ROOT, "%016x%016x", h, Rng.derive(h, "uuid"));
    String uuid =
        "GPU-"
            + hex.substring(0, 8)
            + "-"
            + hex.substring(8, 12)
            + "-"
            + hex.substring(12, 16)
            + "-"
            + hex.substring(16, 20)
            + "-"
            + hex.substring(20, 32);
    String bus =
        index < PCI_BUSES.length
            ? PCI_BUSES[index]
            : String.format(Locale.ROOT, "%02X", 0xE0 + index);
    String pci = "00000000:" + bus + ":00.0";
    if (slot == null) {
      return new Gpu(
          index, uuid, pci, model, null, () -> GpuActivity.Reading.ZERO, () -> 1, false, mig);
    }
    InferencePod pod = slot.pod();
    int engine = slot.engine();
    String kind = pod.info().engine();
    String container =
        kind.startsWith("sglang") || kind.equals("tgi") || kind.equals("trtllm")
            ? kind.replace("-gateway", "")
            : "vllm";
    return new Gpu(
        index,
        uuid,
        pci,
        model,
        new Gpu.Attribution(pod.info().namespace(), pod.info().name(), container),
        () -> pod.activity(engine),
        () -> pod.memoryUsedMiB(engine, pod.clockHint()),
        pod.info().tensorParallel() > 1,
        mig);
  }
}
