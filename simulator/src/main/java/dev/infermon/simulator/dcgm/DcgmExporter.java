package dev.infermon.simulator.dcgm;

import dev.infermon.simulator.model.GpuActivity;
import dev.infermon.simulator.text.PromText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The dcgm-exporter of one node. {@link #render(double)} collects when the 30 s collect interval
 * has passed (values in between repeat, as the real exporter's do) and writes the page in the order
 * of the default counters CSV, optionally with {@code DCGM_FI_PROF_SM_ACTIVE} and {@code
 * DCGM_FI_PROF_SM_OCCUPANCY} as a custom CSV adds them. Labels keep the exporter's fixed order
 * ({@code gpu}, {@code UUID}, {@code pci_bus_id}, {@code device}, {@code modelName}, the node
 * label, {@code DCGM_FI_DRIVER_VERSION}) followed by the attributes in name order; a MIG instance
 * adds {@code GPU_I_PROFILE} and {@code GPU_I_ID} after {@code modelName}, repeats its GPU's
 * device-level readings and reads 0 for {@code GPU_UTIL} and {@code MEM_COPY_UTIL}, which DCGM does
 * not measure per instance (NVIDIA/dcgm-exporter#216, #50). DRA attribution writes the labels of
 * the example in kubernetes/website's KubeletPodResourcesDynamicResources page (pool = node, device
 * {@code gpu-N}). Integers are written plain, doubles with six decimals. Not thread-safe.
 */
public final class DcgmExporter {
  /** The exporter's default collect interval. */
  public static final double COLLECT_INTERVAL_SECONDS = 30;

  static final double FB_TOTAL_MIB = 81559;
  static final double FB_RESERVED_MIB = 543;
  private static final double IDLE_WATTS = 72;
  private static final double MAX_WATTS = 700;
  private static final String DRIVER = "580.95.05";

  private final String hostname;
  private final String nodeLabel;
  private final List<Gpu> gpus;
  private final boolean smFields;
  private final boolean dra;
  private final Device[] devices;
  private final State[] states;
  private final String[] labelText;
  private final String[] xidLabelText;
  private double lastCollect = Double.NaN;

  /**
   * An exporter of a release (node label {@code Hostname}) for {@code gpus} on {@code hostname}.
   */
  public DcgmExporter(String hostname, List<Gpu> gpus, boolean smFields) {
    this(hostname, gpus, smFields, "Hostname");
  }

  /**
   * An exporter for {@code gpus} on {@code hostname}.
   *
   * @param smFields whether the custom CSV enables SM active and SM occupancy
   * @param nodeLabel {@code Hostname} (releases through 4.5.3-4.8.2) or {@code hostname} (main
   *     since NVIDIA/dcgm-exporter#655, d5e5f51)
   */
  public DcgmExporter(String hostname, List<Gpu> gpus, boolean smFields, String nodeLabel) {
    this(hostname, gpus, smFields, nodeLabel, false);
  }

  /**
   * An exporter for {@code gpus} on {@code hostname}; entries sharing an index are the MIG
   * instances of one GPU, which share its device-level readings (power, energy, temperatures,
   * clocks: #257, #50).
   *
   * @param dra whether GPUs are attributed through DRA ({@code --kubernetes-enable-dra}): the
   *     attributed series carry {@code dra_claim_name}, {@code dra_claim_namespace}, {@code
   *     dra_device_name}, {@code dra_driver_name} and {@code dra_pool_name} and no {@code pod_uid}
   *     (kubernetes.go@d5e5f51); MIG instances are never DRA-attributed there, so both together are
   *     refused
   */
  public DcgmExporter(
      String hostname, List<Gpu> gpus, boolean smFields, String nodeLabel, boolean dra) {
    if (gpus.isEmpty()) {
      throw new IllegalArgumentException("node " + hostname + " has no GPUs");
    }
    if (!"Hostname".equals(nodeLabel) && !"hostname".equals(nodeLabel)) {
      throw new IllegalArgumentException(
          "nodeLabel must be Hostname or hostname, got " + nodeLabel);
    }
    this.hostname = hostname;
    this.nodeLabel = nodeLabel;
    this.gpus = List.copyOf(gpus);
    this.smFields = smFields;
    this.dra = dra;
    int physical = 0;
    for (Gpu g : this.gpus) {
      if (dra && g.isMig()) {
        throw new IllegalArgumentException(
            "GPU " + g.index() + " on " + hostname + ": MIG instances are not DRA-attributed");
      }
      physical = Math.max(physical, g.index() + 1);
    }
    this.devices = new Device[physical];
    for (int d = 0; d < physical; d++) {
      this.devices[d] = new Device();
    }
    this.states = new State[gpus.size()];
    this.labelText = new String[gpus.size()];
    this.xidLabelText = new String[gpus.size()];
    for (int i = 0; i < states.length; i++) {
      states[i] = new State(devices[this.gpus.get(i).index()], this.gpus.get(i));
      labelText[i] = PromText.labelText(labels(this.gpus.get(i), new String[0]));
      xidLabelText[i] =
          PromText.labelText(
              labels(this.gpus.get(i), new String[] {"err_code", "0", "err_msg", "No Error"}));
    }
  }

  /** The node's GPUs. */
  public List<Gpu> gpus() {
    return gpus;
  }

  /** The node name (the value of {@code Hostname} or {@code hostname}). */
  public String hostname() {
    return hostname;
  }

  /**
   * The energy counters ({@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION}, mJ) of the GPUs attributed
   * to pod {@code pod}, summed, as of the last collection.
   */
  public double energyMillijoules(String pod) {
    double mj = 0;
    for (int i = 0; i < gpus.size(); i++) {
      Gpu.Attribution a = gpus.get(i).attribution();
      if (a != null && a.pod().equals(pod)) {
        mj += (long) devices[gpus.get(i).index()].energyMj;
      }
    }
    return mj;
  }

  /**
   * The energy counters of the node's physical GPUs, summed, as of the last collection: a MIG GPU
   * counts once however many instances repeat its counter.
   */
  public double deviceEnergyMillijoules() {
    double mj = 0;
    for (Device d : devices) {
      mj += (long) d.energyMj;
    }
    return mj;
  }

  /** Collects if the interval has passed, then renders the page as of the last collection. */
  public String render(double now) {
    collect(now);
    PromText out = new PromText(12 * 1024 * gpus.size());
    field(
        out,
        "DCGM_FI_DEV_SM_CLOCK",
        "SM clock frequency (in MHz).",
        "gauge",
        s -> i(s.device.smClock));
    field(out, "DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).", "gauge", s -> i(2619));
    field(
        out,
        "DCGM_FI_DEV_MEMORY_TEMP",
        "Memory temperature (in C).",
        "gauge",
        s -> i(Math.round(s.device.temperature + 5)));
    field(
        out,
        "DCGM_FI_DEV_GPU_TEMP",
        "GPU temperature (in C).",
        "gauge",
        s -> i(Math.round(s.device.temperature)));
    field(out, "DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", "gauge", s -> d(s.device.power));
    field(
        out,
        "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
        "Total energy consumption since boot (in mJ).",
        "counter",
        s -> i((long) s.device.energyMj));
    field(
        out,
        "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
        "Total number of PCIe retries.",
        "counter",
        s -> i(0));
    field(
        out,
        "DCGM_FI_DEV_GPU_UTIL",
        "GPU utilization (in %).",
        "gauge",
        s -> i(s.mig ? 0 : Math.round(s.ratios.kernel() * 100)));
    field(
        out,
        "DCGM_FI_DEV_MEM_COPY_UTIL",
        "Memory utilization (in %).",
        "gauge",
        s -> i(s.mig ? 0 : Math.round(s.ratios.dram() * 80)));
    field(out, "DCGM_FI_DEV_ENC_UTIL", "Encoder utilization (in %).", "gauge", s -> i(0));
    field(out, "DCGM_FI_DEV_DEC_UTIL", "Decoder utilization (in %).", "gauge", s -> i(0));
    out.family("DCGM_FI_DEV_XID_ERRORS", "Value of the last XID error encountered.", "gauge");
    for (int g = 0; g < gpus.size(); g++) {
      out.rawSample("DCGM_FI_DEV_XID_ERRORS", xidLabelText[g], "0");
    }
    field(
        out,
        "DCGM_FI_DEV_FB_FREE",
        "Framebuffer memory free (in MiB).",
        "gauge",
        s -> i(Math.round(s.memoryTotal - s.reserved - s.memoryUsed)));
    field(
        out,
        "DCGM_FI_DEV_FB_USED",
        "Framebuffer memory used (in MiB).",
        "gauge",
        s -> i(Math.round(s.memoryUsed)));
    field(
        out,
        "DCGM_FI_DEV_FB_RESERVED",
        "Framebuffer memory reserved (in MiB).",
        "gauge",
        s -> i(Math.round(s.reserved)));
    field(
        out,
        "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS",
        "Number of remapped rows for uncorrectable errors",
        "counter",
        s -> i(0));
    field(
        out,
        "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS",
        "Number of remapped rows for correctable errors",
        "counter",
        s -> i(0));
    field(
        out,
        "DCGM_FI_DEV_ROW_REMAP_FAILURE",
        "Whether remapping of rows has failed",
        "gauge",
        s -> i(0));
    field(
        out,
        "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
        "Total number of NVLink bandwidth counters for all lanes.",
        "counter",
        s -> i((long) s.device.nvlink));
    field(out, "DCGM_FI_DEV_VGPU_LICENSE_STATUS", "vGPU License status", "gauge", s -> i(0));
    field(
        out,
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
        "Ratio of time the graphics engine is active.",
        "gauge",
        s -> d(s.ratios.kernel()));
    if (smFields) {
      field(
          out,
          "DCGM_FI_PROF_SM_ACTIVE",
          "The ratio of cycles an SM has at least 1 warp assigned.",
          "gauge",
          s -> d(s.ratios.sm()));
      field(
          out,
          "DCGM_FI_PROF_SM_OCCUPANCY",
          "The ratio of number of warps resident on an SM.",
          "gauge",
          s -> d(s.ratios.occupancy()));
    }
    field(
        out,
        "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
        "Ratio of cycles the tensor (HMMA) pipe is active.",
        "gauge",
        s -> d(s.ratios.tensor()));
    field(
        out,
        "DCGM_FI_PROF_DRAM_ACTIVE",
        "Ratio of cycles the device memory interface is active sending or receiving data.",
        "gauge",
        s -> d(s.ratios.dram()));
    field(
        out,
        "DCGM_FI_PROF_PCIE_TX_BYTES",
        "The rate of data transmitted over the PCIe bus - including both protocol headers and"
            + " data payloads - in bytes per second.",
        "gauge",
        s -> i(Math.round(2.1e6 + s.ratios.kernel() * 7.6e7)));
    field(
        out,
        "DCGM_FI_PROF_PCIE_RX_BYTES",
        "The rate of data received over the PCIe bus - including both protocol headers and data"
            + " payloads - in bytes per second.",
        "gauge",
        s -> i(Math.round(1.7e6 + s.ratios.kernel() * 4.4e7)));
    return out.toString();
  }

  private void collect(double now) {
    if (!Double.isNaN(lastCollect) && now - lastCollect < COLLECT_INTERVAL_SECONDS) {
      return;
    }
    double dt = Double.isNaN(lastCollect) ? 0 : now - lastCollect;
    lastCollect = now;
    for (Device d : devices) {
      d.kernel = d.sm = d.tensor = 0;
      d.tensorParallel = false;
    }
    for (int g = 0; g < gpus.size(); g++) {
      Gpu gpu = gpus.get(g);
      State s = states[g];
      GpuActivity.Reading reading = gpu.activity().get();
      s.ratios = reading.since(s.last);
      s.last = reading;
      s.memoryUsed =
          Math.max(1, Math.min(s.memoryTotal - s.reserved, gpu.memoryUsedMiB().getAsDouble()));
      // a MIG instance loads its GPU by its share of the compute slices
      double share = gpu.isMig() ? gpu.mig().share() : 1;
      Device d = s.device;
      d.kernel += share * s.ratios.kernel();
      d.sm += share * s.ratios.sm();
      d.tensor += share * s.ratios.tensor();
      d.tensorParallel |= gpu.tensorParallel();
    }
    for (Device d : devices) {
      d.power =
          IDLE_WATTS + (MAX_WATTS - IDLE_WATTS) * (0.25 * d.kernel + 0.5 * d.sm + 0.25 * d.tensor);
      d.power = Math.round(d.power * 1000) / 1000.0;
      d.energyMj += d.power * dt * 1000;
      double target = 29 + 0.062 * d.power;
      d.temperature =
          Double.isNaN(d.temperature) ? target : d.temperature + (target - d.temperature) * 0.6;
      d.smClock = d.kernel > 0.02 ? 1980 : 345;
      if (d.tensorParallel) {
        d.nvlink += d.kernel * dt * 3.2e9;
      }
    }
  }

  private interface Value {
    String of(State s);
  }

  private void field(PromText out, String name, String help, String type, Value value) {
    out.family(name, help, type);
    for (int g = 0; g < gpus.size(); g++) {
      out.rawSample(name, labelText[g], value.of(states[g]));
    }
  }

  private String[] labels(Gpu gpu, String[] extra) {
    List<String> out = new ArrayList<>(32);
    out.addAll(
        List.of(
            "gpu",
            Integer.toString(gpu.index()),
            "UUID",
            gpu.uuid(),
            "pci_bus_id",
            gpu.pciBusId(),
            "device",
            "nvidia" + gpu.index(),
            "modelName",
            gpu.modelName()));
    if (gpu.isMig()) {
      // render_metrics.go writes the instance's profile and id between modelName and the node
      out.addAll(
          List.of(
              "GPU_I_PROFILE",
              gpu.mig().profile(),
              "GPU_I_ID",
              Integer.toString(gpu.mig().instanceId())));
    }
    out.addAll(List.of(nodeLabel, hostname, "DCGM_FI_DRIVER_VERSION", DRIVER));
    // attributes follow in name order (a Go map ranged in a template): container, dra_*,
    // err_code, err_msg, namespace, pod, pod_uid
    Gpu.Attribution a = gpu.attribution();
    if (a != null) {
      out.add("container");
      out.add(a.container());
      if (dra) {
        out.addAll(
            List.of(
                "dra_claim_name",
                a.pod() + "-gpu",
                "dra_claim_namespace",
                a.namespace(),
                "dra_device_name",
                "gpu-" + gpu.index(),
                "dra_driver_name",
                "gpu.nvidia.com",
                "dra_pool_name",
                hostname));
      }
    }
    out.addAll(List.of(extra));
    if (a != null) {
      out.addAll(List.of("namespace", a.namespace(), "pod", a.pod()));
      if (!dra) {
        // 4.4.0-4.5.0 to 4.5.2-4.8.1 write it always, empty unless --kubernetes-enable-pod-uid
        out.addAll(List.of("pod_uid", ""));
      }
    }
    return out.toArray(new String[0]);
  }

  private static String i(long v) {
    return Long.toString(v);
  }

  private static String d(double v) {
    return String.format(Locale.ROOT, "%.6f", v);
  }

  /** The readings of one entry: a whole GPU or a MIG instance. */
  private static final class State {
    final Device device;
    final boolean mig;
    final double memoryTotal;
    final double reserved;
    GpuActivity.Reading last = GpuActivity.Reading.ZERO;
    GpuActivity.Ratios ratios = GpuActivity.Ratios.IDLE;
    double memoryUsed = 1;

    State(Device device, Gpu gpu) {
      this.device = device;
      this.mig = gpu.isMig();
      this.memoryTotal = mig ? gpu.mig().memoryMiB() : FB_TOTAL_MIB;
      this.reserved = mig ? 0 : FB_RESERVED_MIB;
    }
  }

  /** The device-level readings of one physical GPU, shared by its MIG instances. */
  private static final class Device {
    double kernel;
    double sm;
    double tensor;
    boolean tensorParallel;
    double power = IDLE_WATTS;
    double energyMj = 4.1e8;
    double temperature = Double.NaN;
    long smClock = 345;
    double nvlink;

    Device() {}
  }
}
