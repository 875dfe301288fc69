package dev.infermon.simulator.amdgpu;

import dev.infermon.simulator.dcgm.Gpu;
import dev.infermon.simulator.model.GpuActivity;
import dev.infermon.simulator.text.PromText;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * AMD device-metrics-exporter of one MI300X node. It reads the GPUs on every scrape (its HTTP
 * middleware calls UpdateMetrics before the handler: pkg/exporter/exporter.go @ afd0fe8) and writes
 * the page as client_golang's registry does: families in name order, each with its HELP and TYPE
 * (every family a GaugeVec, the accumulated energy too), labels in name order, series ordered by
 * their label values, the mandatory labels always written ({@code pod}, {@code namespace}, {@code
 * container}, {@code job_*} empty when nothing holds the GPU), values in Go's shortest {@code %g}
 * form. Names and help are those of gpuagent_gpu_metrics.go @ afd0fe8; only the families the GPU
 * panels read and their neighbours are written.
 *
 * <p>Under a compute partition mode (DPX, QPX, CPX) each physical GPU is as many consecutive {@code
 * gpu_id}s sharing its serial number, {@code gpu_partition_id} 0 to N-1 within it. As
 * metricslist.md @ afd0fe8 says, only the primary partition ({@code partition_id=0}) reports the
 * physical GPU's readings: GFX and UMC activity (amdsmi has no per-partition activity) and power
 * there, 0 on the others; energy, temperatures and clocks are written for the primary only.
 * Activity and power on the primary are the whole GPU's, from its partitions' work together; each
 * partition holds 1/N of the VRAM (aac.amd.com gpu-partitioning: "~50% of memory" per DPX logical
 * GPU). Not thread-safe.
 */
public final class AmdExporter {
  /**
   * MI300X's HBM3: 192 GiB per GPU (Azure ND MI300X v5: "GPU Memory GiB 192"), in the exporter's
   * "MB", which is amdsmi's bytes / (1024 * 1024): MiB (ROCm/amdsmi amd_smi.cc @ 1991c5ce).
   */
  public static final long VRAM_TOTAL_MB = 192 * 1024;

  /** The card_model an MI300X OAM reports: its board part number (silogen/kaiwo's real series). */
  public static final String MI300X_CARD_MODEL = "102-G30211-0C";

  /** The framebuffer the simulated engines size their allocation against (an H100's, in MiB). */
  private static final double ENGINE_FB_MIB = 81559;

  private static final double IDLE_WATTS = 140;
  // MI300X's typical board power, 750 W (the spec pages the gpu-peaks MI300X row cites)
  private static final double MAX_WATTS = 750;

  private final String hostname;
  private final AmdPartition partition;
  private final List<Gpu> gpus;
  private final State[] states;
  private final Integer[] order;
  private double lastRead = Double.NaN;

  /**
   * An exporter for {@code gpus} on {@code hostname}.
   *
   * @throws IllegalArgumentException when there is no GPU, or one is a MIG instance (AMD GPUs
   *     partition into gpu_id of their own, which is not simulated)
   */
  public AmdExporter(String hostname, List<Gpu> gpus) {
    this(hostname, gpus, AmdPartition.SPX);
  }

  /**
   * An exporter for the partitions {@code gpus} of GPUs in mode {@code partition} on {@code
   * hostname}: each run of {@code partition.partitions()} consecutive entries is one physical GPU.
   *
   * @throws IllegalArgumentException as {@link #AmdExporter(String, List)}, and when the entries
   *     are not whole GPUs' partitions
   */
  public AmdExporter(String hostname, List<Gpu> gpus, AmdPartition partition) {
    if (gpus.isEmpty()) {
      throw new IllegalArgumentException("node " + hostname + " has no GPUs");
    }
    if (gpus.size() % partition.partitions() != 0) {
      throw new IllegalArgumentException(
          "node "
              + hostname
              + ": "
              + gpus.size()
              + " partitions are not whole GPUs of "
              + partition.partitions()
              + " ("
              + partition.label()
              + ")");
    }
    this.hostname = hostname;
    this.partition = partition;
    this.gpus = List.copyOf(gpus);
    this.states = new State[this.gpus.size()];
    for (int i = 0; i < states.length; i++) {
      Gpu g = this.gpus.get(i);
      if (g.isMig()) {
        throw new IllegalArgumentException(
            "GPU " + g.index() + " on " + hostname + ": MIG is NVIDIA's; MI300X has no instances");
      }
      states[i] = new State(labels(i));
    }
    this.order = new Integer[states.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    // client_golang sorts a family's series by their label values, in label-name order
    Arrays.sort(order, (a, b) -> compare(states[a].values, states[b].values));
  }

  /** The node's GPUs. */
  public List<Gpu> gpus() {
    return gpus;
  }

  /** The node name ({@code hostname}). */
  public String hostname() {
    return hostname;
  }

  /**
   * The energy ({@code gpu_energy_consumed}, micro-joules) of the GPUs attributed to pod {@code
   * pod}, summed, as of the last scrape: a partition's is its 1/N share of its GPU's reading, which
   * only the primary partition writes.
   */
  public double energyMicrojoules(String pod) {
    double uj = 0;
    for (int i = 0; i < gpus.size(); i++) {
      if (holds(i, pod)) {
        uj += states[primary(i)].energyUj / partition.partitions();
      }
    }
    return uj;
  }

  /** The compute partition mode. */
  public AmdPartition partition() {
    return partition;
  }

  /** The {@code gpu_id} of the primary partition of the GPU that {@code gpu_id} {@code i} is in. */
  private int primary(int i) {
    return i - i % partition.partitions();
  }

  private boolean isPrimary(int i) {
    return i % partition.partitions() == 0;
  }

  /** The {@code gpu_used_vram} of the GPUs attributed to pod {@code pod}, summed, MB. */
  public double usedVramMb(String pod) {
    double mb = 0;
    for (int i = 0; i < gpus.size(); i++) {
      if (holds(i, pod)) {
        mb += states[i].usedMb;
      }
    }
    return mb;
  }

  /**
   * The {@code gpu_gfx_activity} of each GPU attributed to pod {@code pod}, percent (0 on a
   * partition that is not its GPU's primary).
   */
  public List<Long> gfxActivity(String pod) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < gpus.size(); i++) {
      if (holds(i, pod)) {
        out.add(states[i].gfx);
      }
    }
    return out;
  }

  /**
   * The {@code gpu_power_usage} of each GPU attributed to pod {@code pod}, watts (0 on a partition
   * that is not its GPU's primary).
   */
  public List<Long> powerWatts(String pod) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < gpus.size(); i++) {
      if (holds(i, pod)) {
        out.add(states[i].power);
      }
    }
    return out;
  }

  private boolean holds(int i, String pod) {
    Gpu.Attribution a = gpus.get(i).attribution();
    return a != null && a.pod().equals(pod);
  }

  /** Reads the GPUs, then renders the page. */
  public String render(double now) {
    read(now);
    PromText out = new PromText(6 * 1024 * gpus.size());
    clocks(out);
    primaryField(
        out,
        "gpu_energy_consumed",
        "Accumulated energy consumed by the GPU in uJ",
        s -> go(s.energyUj));
    field(
        out,
        "gpu_free_vram",
        "Free VRAM memory of the GPU (in MB)",
        s -> go(vramTotalMb() - s.usedMb));
    field(out, "gpu_gfx_activity", "Graphics engine usage in Percentage (0-100)", s -> go(s.gfx));
    primaryField(
        out,
        "gpu_junction_temperature",
        "Current junction/hotspot temperature in Celsius",
        s -> go(Math.round(s.temperature)));
    primaryField(
        out,
        "gpu_memory_temperature",
        "Current memory temperature in Celsius",
        s -> go(Math.round(s.temperature - 6)));
    out.family("gpu_nodes_total", "Number of GPUs in the node", "gauge");
    out.rawSample("gpu_nodes_total", "{hostname=\"" + hostname + "\"}", go(gpus.size()));
    field(out, "gpu_package_power", "Current socket power in Watts", s -> go(s.power));
    field(out, "gpu_power_usage", "GPU Power usage in Watts", s -> go(s.power));
    field(out, "gpu_total_vram", "Total VRAM memory of the GPU (in MB)", s -> go(vramTotalMb()));
    field(out, "gpu_umc_activity", "Memory engine usage in Percentage (0-100)", s -> go(s.umc));
    field(out, "gpu_used_vram", "Used VRAM memory of the GPU (in MB)", s -> go(s.usedMb));
    return out.toString();
  }

  /** One partition's VRAM, MB: the GPU's when whole. */
  private long vramTotalMb() {
    return VRAM_TOTAL_MB / partition.partitions();
  }

  private void read(double now) {
    double dt = Double.isNaN(lastRead) ? 0 : now - lastRead;
    lastRead = now;
    for (int g = 0; g < gpus.size(); g++) {
      Gpu gpu = gpus.get(g);
      State s = states[g];
      GpuActivity.Reading reading = gpu.activity().get();
      // a second scrape at the same instant sees the readings of the first
      s.ratios = reading.elapsed() > s.last.elapsed() ? reading.since(s.last) : s.ratios;
      s.last = reading;
      // the engine allocates the same share of the card it runs on (gpu_memory_utilization)
      double share = Math.min(1, gpu.memoryUsedMiB().getAsDouble() / ENGINE_FB_MIB);
      s.usedMb = Math.max(1, Math.round(share * vramTotalMb()));
    }
    int n = partition.partitions();
    for (int p = 0; p < gpus.size(); p += n) {
      // the physical GPU's activity: its partitions' (equal shares of its XCDs) together
      double kernel = 0;
      double sm = 0;
      double tensor = 0;
      double dram = 0;
      for (int g = p; g < p + n; g++) {
        GpuActivity.Ratios r = states[g].ratios;
        kernel += r.kernel() / n;
        sm += r.sm() / n;
        tensor += r.tensor() / n;
        dram += r.dram() / n;
      }
      State s = states[p];
      s.gfx = Math.round(kernel * 100);
      s.umc = Math.round(dram * 80);
      s.power =
          Math.round(
              IDLE_WATTS + (MAX_WATTS - IDLE_WATTS) * (0.25 * kernel + 0.5 * sm + 0.25 * tensor));
      s.energyUj += s.power * dt * 1e6;
      double target = 38 + 0.07 * s.power;
      s.temperature =
          Double.isNaN(s.temperature) ? target : s.temperature + (target - s.temperature) * 0.6;
      for (int g = p + 1; g < p + n; g++) {
        // no per-partition activity (amdsmi) nor per-XCD power sensor: 0 (metricslist.md)
        states[g].gfx = 0;
        states[g].umc = 0;
        states[g].power = 0;
      }
    }
  }

  private interface Value {
    String of(State s);
  }

  private void field(PromText out, String name, String help, Value value) {
    out.family(name, help, "gauge");
    for (int i : order) {
      out.rawSample(name, states[i].labelText, value.of(states[i]));
    }
  }

  /** A family of the physical GPU's sensors: written for primary partitions only. */
  private void primaryField(PromText out, String name, String help, Value value) {
    out.family(name, help, "gauge");
    for (int i : order) {
      if (isPrimary(i)) {
        out.rawSample(name, states[i].labelText, value.of(states[i]));
      }
    }
  }

  /** {@code gpu_clock} per clock type (clock_index, clock_type before the GPU labels, sorted). */
  private void clocks(PromText out) {
    out.family("gpu_clock", "List of current GPU clock frequencies in MHz", "gauge");
    String[][] types = {{"0", "system"}, {"8", "memory"}};
    for (String[] t : types) {
      for (int i : order) {
        if (!isPrimary(i)) {
          continue; // the physical GPU's clocks: suppressed on the other partitions
        }
        State s = states[i];
        long mhz = t[1].equals("memory") ? 1300 : s.ratios.kernel() > 0.02 ? 2100 : 132;
        String pairs =
            "{card_model=\""
                + MI300X_CARD_MODEL
                + "\",clock_index=\""
                + t[0]
                + "\",clock_type=\""
                + t[1]
                + "\","
                + s.labelText.substring("{card_model=\"\",".length() + MI300X_CARD_MODEL.length());
        out.rawSample("gpu_clock", pairs, go(mhz));
      }
    }
  }

  /** The mandatory labels (gpuMandatoryLables), in name order as client_golang writes them. */
  private String[] labels(int i) {
    Gpu gpu = gpus.get(i);
    Gpu.Attribution a = gpu.attribution();
    return new String[] {
      "card_model",
      MI300X_CARD_MODEL,
      "container",
      a == null ? "" : a.container(),
      "deployment_mode",
      "baremetal",
      "gpu_compute_partition_type",
      partition.label(),
      "gpu_id",
      Integer.toString(gpu.index()),
      "gpu_memory_partition_type",
      "nps1",
      "gpu_partition_id",
      Integer.toString(i % partition.partitions()),
      "hostname",
      hostname,
      "job_id",
      "",
      "job_partition",
      "",
      "job_user",
      "",
      "namespace",
      a == null ? "" : a.namespace(),
      "pod",
      a == null ? "" : a.pod(),
      "serial_number",
      // a partition reports its parent's serial (populateLabelsFromGPU: parentPartition)
      serial(gpus.get(primary(i)).uuid())
    };
  }

  /** A 12-digit serial number derived from the GPU's identity (MI300X serials are 12 digits). */
  private static String serial(String uuid) {
    long h = 0;
    for (char c : uuid.toCharArray()) {
      h = h * 31 + c;
    }
    return String.format(Locale.ROOT, "6924%08d", Math.floorMod(h, 100_000_000L));
  }

  private static int compare(String[] a, String[] b) {
    for (int i = 1; i < a.length; i += 2) {
      int c = a[i].compareTo(b[i]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** A value as Go's strconv.FormatFloat(v, 'g', -1, 64) writes it (client_golang's writeFloat). */
  static String go(double v) {
    if (v == 0) {
      return "0";
    }
    BigDecimal d = new BigDecimal(Double.toString(v)).stripTrailingZeros();
    String digits = d.unscaledValue().abs().toString();
    int exp = digits.length() - 1 - d.scale();
    String sign = v < 0 ? "-" : "";
    // shortest %g switches to an exponent from 1e+06 on (Go's ftoa: eprec 6 when shortest), as
    // Go exporters' pages show (go_memstats_alloc_bytes 2.863664e+06)
    if (exp < -4 || exp >= 6) {
      String mant = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      String e = Integer.toString(Math.abs(exp));
      return sign + mant + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
    }
    return d.toPlainString();
  }

  /** One GPU's readings as of the last scrape. */
  private static final class State {
    final String[] values;
    final String labelText;
    GpuActivity.Reading last = GpuActivity.Reading.ZERO;
    GpuActivity.Ratios ratios = GpuActivity.Ratios.IDLE;
    long usedMb = 1;
    long gfx;
    long umc;
    long power = (long) IDLE_WATTS;
    double energyUj = 3.6e11;
    double temperature = Double.NaN;

    State(String[] pairs) {
      this.values = pairs;
      this.labelText = PromText.labelText(pairs);
    }
  }
}
