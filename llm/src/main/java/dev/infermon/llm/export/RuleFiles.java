package dev.infermon.llm.export;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.time.Duration;
import java.util.List;

/**
 * Writes alert rules as a Prometheus rule file and as a prometheus-operator {@code PrometheusRule}
 * resource (YAML). Stateless.
 */
public final class RuleFiles {
  private static final YAMLMapper YAML =
      new YAMLMapper(
          YAMLFactory.builder()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .build());

  private RuleFiles() {}

  /** A rule file: {@code groups: [{name, rules}]}, as {@code promtool check rules} reads it. */
  public static String prometheusRuleFile(String group, List<AlertRule> rules) {
    ObjectNode root = YAML.createObjectNode();
    groups(root, group, rules);
    return write(root);
  }

  /** The same group as a {@code monitoring.coreos.com/v1} PrometheusRule named {@code name}. */
  public static String prometheusRule(
      String name, String namespace, String group, List<AlertRule> rules) {
    if (name == null || !name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
      throw new IllegalArgumentException("not a Kubernetes object name: \"" + name + "\"");
    }
    ObjectNode root = YAML.createObjectNode();
    root.put("apiVersion", "monitoring.coreos.com/v1");
    root.put("kind", "PrometheusRule");
    ObjectNode meta = root.putObject("metadata");
    meta.put("name", name);
    if (namespace != null && !namespace.isEmpty()) {
      meta.put("namespace", namespace);
    }
    meta.putObject("labels").put("app.kubernetes.io/name", "infermon");
    groups(root.putObject("spec"), group, rules);
    return write(root);
  }

  private static void groups(ObjectNode parent, String group, List<AlertRule> rules) {
    ObjectNode g = parent.putArray("groups").addObject();
    g.put("name", group);
    ArrayNode rs = g.putArray("rules");
    for (AlertRule r : rules) {
      ObjectNode n = rs.addObject();
      n.put("alert", r.alert());
      n.put("expr", r.expr());
      n.put("for", duration(r.forDuration()));
      ObjectNode labels = n.putObject("labels");
      r.labels().forEach(labels::put);
      ObjectNode ann = n.putObject("annotations");
      r.annotations().forEach(ann::put);
    }
  }

  /** Prometheus duration notation ({@code 10m}, {@code 90s}). */
  static String duration(Duration d) {
    long s = d.getSeconds();
    if (s % 3600 == 0 && s > 0) {
      return s / 3600 + "h";
    }
    if (s % 60 == 0 && s > 0) {
      return s / 60 + "m";
    }
    return s + "s";
  }

  private static String write(ObjectNode root) {
    try {
      return YAML.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write YAML", e);
    }
  }
}
