package dev.infermon.llm.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The GPUs' peak throughput by dcgm-exporter {@code modelName} (gpu-peaks.yaml): the denominators
 * of model FLOPs utilisation and memory-bandwidth utilisation. The table is data, read and
 * validated once; a problem is a {@link LayoutException} naming the file, the entry and the field.
 * Immutable; thread-safe.
 *
 * @param gpus the products, in the file's order
 */
record GpuPeaks(List<Peak> gpus) {
  private static final String RESOURCE = "/dev/infermon/llm/dashboard/gpu-peaks.yaml";
  private static final Set<String> TOP_KEYS = Set.of("gpus");
  private static final Set<String> ROW_KEYS =
      Set.of("product", "names", "bf16_dense_tflops", "memory_bandwidth_gbs", "cite");

  /**
   * One product.
   *
   * @param product what the datasheet calls it
   * @param names its dcgm-exporter {@code modelName} spellings
   * @param flops dense BF16 peak in FLOP/s
   * @param bytesPerSecond peak memory bandwidth in bytes per second
   * @param cite the source of the figures
   */
  record Peak(
      String product, List<String> names, double flops, double bytesPerSecond, String cite) {
    Peak {
      names = List.copyOf(names);
    }

    /** The figure of {@code kind}. */
    double of(Measure.OfPeak.Peak kind) {
      return kind == Measure.OfPeak.Peak.FLOPS ? flops : bytesPerSecond;
    }
  }

  GpuPeaks {
    gpus = List.copyOf(gpus);
  }

  /** The built-in table from the class path. */
  static GpuPeaks loadResource() {
    try (InputStream in = GpuPeaks.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new LayoutException("GPU peak table missing from the class path: " + RESOURCE);
      }
      return load("gpu-peaks.yaml", in);
    } catch (IOException e) {
      throw new LayoutException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses and validates a table.
   *
   * @param file the name used in error messages
   * @throws LayoutException naming the file, entry and field of the first problem
   */
  static GpuPeaks load(String file, InputStream yaml) {
    JsonNode root;
    try {
      root = new YAMLMapper().readTree(yaml);
    } catch (IOException e) {
      throw new LayoutException(file + ": not valid YAML: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new LayoutException(file + ": the document must be a mapping");
    }
    unknownKeys(root, TOP_KEYS, file + ": ");
    JsonNode list = root.path("gpus");
    if (!list.isArray() || list.isEmpty()) {
      throw new LayoutException(file + ": gpus: must be a non-empty list");
    }
    List<Peak> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      out.add(row(list.get(i), file + ": gpus[" + i + "]", seen));
    }
    return new GpuPeaks(out);
  }

  private static Peak row(JsonNode n, String at, Set<String> seen) {
    if (!n.isObject()) {
      throw new LayoutException(at + ": must be a mapping");
    }
    String product = text(n, "product", at);
    String where = at + " (\"" + product + "\"): ";
    unknownKeys(n, ROW_KEYS, where);
    JsonNode names = n.path("names");
    if (!names.isArray() || names.isEmpty()) {
      throw new LayoutException(where + "names: must be a non-empty list of modelName values");
    }
    List<String> ns = new ArrayList<>();
    for (JsonNode name : names) {
      if (!name.isTextual() || name.asText().isBlank()) {
        throw new LayoutException(where + "names: " + name + " is not a modelName");
      }
      if (!seen.add(name.asText())) {
        throw new LayoutException(where + "names: \"" + name.asText() + "\" is listed twice");
      }
      ns.add(name.asText());
    }
    double tflops = positive(n, "bf16_dense_tflops", where);
    double gbs = positive(n, "memory_bandwidth_gbs", where);
    String cite = text(n, "cite", at);
    return new Peak(product, ns, tflops * 1e12, gbs * 1e9, cite);
  }

  private static double positive(JsonNode n, String field, String where) {
    JsonNode v = n.path(field);
    if (!v.isNumber() || !(v.asDouble() > 0) || !Double.isFinite(v.asDouble())) {
      throw new LayoutException(
          where + field + ": " + (v.isMissingNode() ? "is required" : "must be > 0, got " + v));
    }
    return v.asDouble();
  }

  private static String text(JsonNode n, String field, String at) {
    JsonNode v = n.path(field);
    if (!v.isTextual() || v.asText().isBlank()) {
      throw new LayoutException(at + ": " + field + ": is required (a non-empty string)");
    }
    return v.asText();
  }

  private static void unknownKeys(JsonNode n, Set<String> allowed, String where) {
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw new LayoutException(
            where
                + k
                + ": unknown key (one of "
                + String.join(", ", allowed.stream().sorted().toList())
                + ")");
      }
    }
  }

  /**
   * A PromQL vector with one series per {@code modelName} whose value is its peak of {@code kind}:
   * the table joined to the GPUs' own series by that label.
   */
  String vector(Measure.OfPeak.Peak kind) {
    List<String> parts = new ArrayList<>();
    for (Peak p : gpus) {
      for (String name : p.names()) {
        parts.add(
            "label_replace(vector("
                + java.math.BigDecimal.valueOf(p.of(kind)).toPlainString()
                + "), \"modelName\", \""
                + name.replace("\\", "\\\\").replace("\"", "\\\"").replace("$", "$$")
                + "\", \"\", \"\")");
      }
    }
    return "(" + String.join(" or ", parts) + ")";
  }
}
