package dev.infermon.llm.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each dcgm series' share of its GPU, in PromQL: 1 for a whole GPU, N/S for a MIG instance of
 * profile {@code <N>g.<M>gb} on a GPU of S compute slices ({@code mig.yaml}). The profile is read
 * from {@code GPU_I_PROFILE} (device-plugin attribution) or {@code dra_mig_profile} (DRA); a pod on
 * a 1g.10gb instance of an H100 counts as 1/7 of a GPU, and the GPU's energy counter, which every
 * instance repeats (NVIDIA/dcgm-exporter#257), is shared by the same weights. A partition of an AMD
 * Instinct GPU ({@code partitions} in mig.yaml: CPX, QPX, DPX) counts as 1/N of its GPU the same
 * way, and its GPU's energy, which only the primary partition reports, is spread over the GPU's
 * partitions first ({@link #spread}). Immutable; thread-safe.
 */
final class MigShares {
  private static final String RESOURCE = "/dev/infermon/llm/dashboard/mig.yaml";
  private static final String FILE = "dashboard/mig.yaml";
  private static final String PROFILE_NUMBER = "\"([0-9]+)g\\\\..*\"";

  /** The labels a MIG instance's series carry its profile in; a whole GPU's carry neither. */
  static final List<String> PROFILE_LABELS = List.of("GPU_I_PROFILE", "dra_mig_profile");

  private static final MigShares BUILT_IN = load();

  private final int defaultSlices;
  private final Map<String, Integer> slicesByModel;
  private final Partitions partitions;

  /**
   * A GPU exporter's compute partitions: the label naming the mode, the modes' partition counts,
   * and the labels that one physical GPU's partitions share.
   */
  record Partitions(
      String engine, String label, List<String> deviceLabels, Map<String, Integer> modes) {
    Partitions {
      deviceLabels = List.copyOf(deviceLabels);
      modes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(modes));
    }

    static final Partitions NONE = new Partitions("", "", List.of(), Map.of());

    /** The anchored regex of the partitioned modes ({@code dpx|qpx|cpx}). */
    String modeRegex() {
      return String.join("|", modes.keySet());
    }
  }

  private MigShares(int defaultSlices, Map<String, Integer> slicesByModel, Partitions partitions) {
    this.defaultSlices = defaultSlices;
    this.slicesByModel = Map.copyOf(slicesByModel);
    this.partitions = partitions;
  }

  Partitions partitions() {
    return partitions;
  }

  static MigShares builtIn() {
    return BUILT_IN;
  }

  /**
   * {@code vector}'s series, each with its share of its GPU as value. {@code vector} names the
   * series' labels only (its values are replaced); it is repeated in the text, as PromQL has no
   * binding.
   */
  String shares(String vector) {
    return shares(vector, true);
  }

  /**
   * Whether a series that {@code presence} allows may be a MIG instance or a GPU exporter's compute
   * partition: false only when no series of the fleet carries a profile label or the partition
   * mode's label, where every share is 1.
   */
  static boolean mayPartition(Presence presence) {
    String mode = BUILT_IN.partitions().label();
    return PROFILE_LABELS.stream().anyMatch(presence::mayHaveLabel)
        || (!mode.isEmpty() && presence.mayHaveLabel(mode));
  }

  /**
   * As {@link #shares(String)}; where no series may be a MIG instance ({@code partitioned} false)
   * every share is 1, and the expression is that 1 alone: the full one evaluates {@code vector}
   * five times and relabels every series eight times per step, the costliest part of the GPU panels
   * of a fleet of whole GPUs (docs/benchmarks.md, the dashboard load).
   */
  String shares(String vector, boolean partitioned) {
    String one = "(" + vector + " * 0 + 1)";
    if (!partitioned) {
      return one;
    }
    String inf = "label_replace(" + one + ", \"le\", \"+Inf\", \"__name__\", \".*\")";
    String profiles =
        "label_replace(label_replace("
            + inf
            + ", \"le\", \"$1\", \"GPU_I_PROFILE\", "
            + PROFILE_NUMBER
            + "), \"le\", \"$1\", \"dra_mig_profile\", "
            + PROFILE_NUMBER
            + ")";
    String slices = "histogram_quantile(1, " + partitioned(profiles) + " or " + inf + ")";
    String gpu =
        "label_replace(" + inf + ", \"le\", \"" + defaultSlices + "\", \"__name__\", \".*\")";
    for (Map.Entry<String, Integer> e : slicesByModel.entrySet()) {
      gpu =
          "label_replace("
              + gpu
              + ", \"le\", \""
              + e.getValue()
              + "\", \"modelName\", \".*"
              + e.getKey()
              + ".*\")";
    }
    for (Map.Entry<String, Integer> e : partitions.modes().entrySet()) {
      gpu =
          "label_replace("
              + gpu
              + ", \"le\", \""
              + e.getValue()
              + "\", \""
              + partitions.label()
              + "\", \""
              + e.getKey()
              + "\")";
    }
    String gpuSlices = "histogram_quantile(1, " + gpu + " or " + inf + ")";
    // a whole GPU has no profile: its quantile is NaN, dropped by >= 0, and "or" gives it 1
    return "((" + slices + " >= 0) / " + gpuSlices + " or " + one + ")";
  }

  /** {@code vector} with {@code le} 1 on partitions: a partition is one slice of its GPU. */
  private String partitioned(String vector) {
    if (partitions.modes().isEmpty()) {
      return vector;
    }
    return "label_replace("
        + vector
        + ", \"le\", \"1\", \""
        + partitions.label()
        + "\", \""
        + partitions.modeRegex()
        + "\")";
  }

  /**
   * A device-level reading of the partitions exporter: {@code whole} (the reading of unpartitioned
   * GPUs) as it is, and {@code primary} (the partitioned GPUs' readings, on their primary partition
   * only) copied onto each partition of its GPU, the series of {@code perPartition} (one per
   * partition) sharing its device labels. Weighted by {@link #weighted} after, each partition takes
   * its share of its GPU's reading.
   */
  String spread(String whole, String primary, String perPartition) {
    String on = "on (" + String.join(", ", partitions.deviceLabels()) + ")";
    return "("
        + whole
        + " or sum by ("
        + String.join(", ", partitions.deviceLabels())
        + ") ("
        + primary
        + ") * "
        + on
        + " group_right () ("
        + perPartition
        + " * 0 + 1))";
  }

  /** {@code vector} weighted by its series' shares (one to one: the same labels). */
  String weighted(String vector) {
    return weighted(vector, true);
  }

  /**
   * As {@link #weighted(String)}; a fleet of whole GPUs ({@code partitioned} false) is weighted by
   * 1 (the product still drops the name, as the weighting does).
   */
  String weighted(String vector, boolean partitioned) {
    return partitioned ? "(" + vector + ") * " + shares(vector) : "(" + vector + ") * 1";
  }

  private static MigShares load() {
    try (InputStream in = MigShares.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(FILE + " is missing from the classpath");
      }
      return parse(new YAMLMapper().readTree(in));
    } catch (IOException e) {
      throw new IllegalStateException(FILE + ": not valid YAML: " + e.getMessage(), e);
    }
  }

  static MigShares parse(JsonNode root) {
    checkKeys(root, List.of("default_slices", "gpus", "partitions"), "the top level");
    int fallback = slices(root.path("default_slices"), "default_slices");
    Map<String, Integer> byModel = new LinkedHashMap<>();
    int i = 0;
    for (JsonNode g : root.path("gpus")) {
      String at = "gpus[" + i++ + "]";
      checkKeys(g, List.of("model", "slices"), at);
      String model = g.path("model").asText("");
      if (!model.matches("[A-Za-z0-9][A-Za-z0-9 -]*")) {
        throw new IllegalStateException(
            FILE
                + ": "
                + at
                + ".model must be letters, digits, blanks and dashes, got \""
                + model
                + "\"");
      }
      byModel.put(model, slices(g.path("slices"), at + ".slices"));
    }
    return new MigShares(fallback, byModel, partitions(root.path("partitions")));
  }

  private static Partitions partitions(JsonNode p) {
    if (p.isMissingNode()) {
      return Partitions.NONE;
    }
    checkKeys(p, List.of("engine", "label", "device_labels", "modes"), "partitions");
    List<String> device = new ArrayList<>();
    p.path("device_labels").forEach(n -> device.add(labelName(n.asText(""), "device_labels")));
    if (device.isEmpty()) {
      throw new IllegalStateException(FILE + ": partitions.device_labels is empty");
    }
    Map<String, Integer> modes = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : p.path("modes").properties()) {
      String at = "partitions.modes." + e.getKey();
      if (!e.getKey().matches("[a-z]+")) {
        throw new IllegalStateException(FILE + ": " + at + " must be lower-case letters");
      }
      modes.put(e.getKey(), slices(e.getValue(), at));
    }
    return new Partitions(
        labelName(p.path("engine").asText(""), "partitions.engine"),
        labelName(p.path("label").asText(""), "partitions.label"),
        device,
        modes);
  }

  private static String labelName(String s, String at) {
    if (!s.matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
      throw new IllegalStateException(
          FILE + ": " + at + " must be a label name, got \"" + s + "\"");
    }
    return s;
  }

  private static int slices(JsonNode n, String at) {
    if (!n.isInt() || n.asInt() < 1 || n.asInt() > 8) {
      throw new IllegalStateException(FILE + ": " + at + " must be an integer 1-8, got " + n);
    }
    return n.asInt();
  }

  private static void checkKeys(JsonNode n, List<String> allowed, String at) {
    if (!n.isObject()) {
      throw new IllegalStateException(FILE + ": " + at + " must be a mapping");
    }
    List<String> unknown = new ArrayList<>();
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        unknown.add(k);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalStateException(FILE + ": " + at + ": unknown keys " + unknown);
    }
  }
}
