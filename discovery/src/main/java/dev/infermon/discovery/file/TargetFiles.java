package dev.infermon.discovery.file;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.model.labels.Labels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads one file_sd file: a JSON or YAML list of {@code {targets: [...], labels: {...}}}, the
 * format of Prometheus's {@code file_sd_configs}. Each group gets the source {@code <path>:<index>}
 * and the label {@code __meta_filepath}. Stateless and thread-safe.
 */
final class TargetFiles {
  static final String FILEPATH_LABEL = DiscoveryLabels.META_PREFIX + "filepath";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private TargetFiles() {}

  /** True when the name ends in {@code .json}, {@code .yml} or {@code .yaml}. */
  static boolean isTargetFile(Path p) {
    String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".json") || n.endsWith(".yml") || n.endsWith(".yaml");
  }

  /**
   * The groups of one file.
   *
   * @throws IOException if the file cannot be read or is not a valid target file; the message names
   *     what is wrong (the caller adds the file name)
   */
  static List<TargetGroup> read(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    JsonNode root = (name.endsWith(".json") ? JSON : YAML).readTree(bytes);
    String path = file.toString();
    List<TargetGroup> out = new ArrayList<>();
    if (root == null || root.isNull() || root.isMissingNode()) {
      return out; // an empty YAML file: no groups
    }
    if (!root.isArray()) {
      throw new IOException("expected a list of target groups, found " + root.getNodeType());
    }
    for (int i = 0; i < root.size(); i++) {
      out.add(group(root.get(i), path, i));
    }
    return out;
  }

  private static TargetGroup group(JsonNode g, String path, int i) throws IOException {
    if (!g.isObject()) {
      throw new IOException("group " + i + ": expected an object, found " + g.getNodeType());
    }
    for (Map.Entry<String, JsonNode> field : g.properties()) {
      String f = field.getKey();
      if (!f.equals("targets") && !f.equals("labels")) {
        throw new IOException("group " + i + ": unknown field \"" + f + "\"");
      }
    }
    Labels.Builder lb = Labels.builder();
    JsonNode labels = g.get("labels");
    if (labels != null && !labels.isNull()) {
      if (!labels.isObject()) {
        throw new IOException("group " + i + ": labels must be a map");
      }
      for (Map.Entry<String, JsonNode> e : labels.properties()) {
        if (!LABEL_NAME.matcher(e.getKey()).matches()) {
          throw new IOException("group " + i + ": invalid label name \"" + e.getKey() + "\"");
        }
        if (!e.getValue().isValueNode() || e.getValue().isNull()) {
          throw new IOException(
              "group " + i + ": label \"" + e.getKey() + "\" must have a string value");
        }
        lb.set(e.getKey(), e.getValue().asText());
      }
    }
    lb.set(FILEPATH_LABEL, path);
    List<Labels> targets = new ArrayList<>();
    JsonNode ts = g.get("targets");
    if (ts != null && !ts.isNull()) {
      if (!ts.isArray()) {
        throw new IOException("group " + i + ": targets must be a list");
      }
      for (JsonNode t : ts) {
        String a = t.asText();
        if (!t.isValueNode() || a.isEmpty() || a.contains("/")) {
          throw new IOException("group " + i + ": invalid target \"" + t + "\"");
        }
        targets.add(Labels.of(DiscoveryLabels.ADDRESS, a));
      }
    }
    return new TargetGroup(path + ":" + i, targets, lb.build());
  }
}
