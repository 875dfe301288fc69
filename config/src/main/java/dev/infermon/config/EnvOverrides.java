package dev.infermon.config;

import dev.infermon.config.yaml.Node;
import dev.infermon.config.yaml.Pos;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Environment variables that override common keys. They are applied to the YAML tree before it is
 * mapped, so an override is validated exactly like the key it replaces and a bad value is reported
 * as coming from the variable ({@code env INFERMON_WEB_LISTEN_ADDRESS: web.listen_address: ...}).
 * {@code ${VAR}} inside values is not expanded (Prometheus does not either).
 */
final class EnvOverrides {
  /** One variable: the key path it sets, whether it is a comma-separated list, and its meaning. */
  record Var(String name, List<String> path, boolean list) {
    String dottedPath() {
      return String.join(".", path);
    }
  }

  static final List<Var> VARS =
      List.of(
          scalar("INFERMON_GLOBAL_SCRAPE_INTERVAL", "global", "scrape_interval"),
          scalar("INFERMON_GLOBAL_SCRAPE_TIMEOUT", "global", "scrape_timeout"),
          scalar("INFERMON_GLOBAL_EVALUATION_INTERVAL", "global", "evaluation_interval"),
          scalar(
              "INFERMON_GLOBAL_SCRAPE_SHARDING_REPLICAS", "global", "scrape_sharding", "replicas"),
          scalar("INFERMON_GLOBAL_SCRAPE_SHARDING_INDEX", "global", "scrape_sharding", "index"),
          scalar("INFERMON_STORAGE_MODE", "storage", "mode"),
          scalar("INFERMON_STORAGE_TSDB_PATH", "storage", "tsdb", "path"),
          scalar("INFERMON_STORAGE_TSDB_RETENTION_TIME", "storage", "tsdb", "retention", "time"),
          scalar("INFERMON_STORAGE_TSDB_RETENTION_SIZE", "storage", "tsdb", "retention", "size"),
          scalar("INFERMON_STORAGE_REMOTE_QUERY_URL", "storage", "remote", "query_url"),
          scalar("INFERMON_INFERENCE_ENABLED", "inference", "enabled"),
          new Var("INFERMON_INFERENCE_NAMESPACES", List.of("inference", "namespaces"), true),
          scalar("INFERMON_INFERENCE_LABEL_SELECTOR", "inference", "label_selector"),
          scalar("INFERMON_INFERENCE_PORT_NAME", "inference", "port_name"),
          scalar("INFERMON_INFERENCE_KUBECONFIG_FILE", "inference", "kubeconfig_file"),
          scalar("INFERMON_DCGM_ENABLED", "inference", "dcgm", "enabled"),
          scalar("INFERMON_AMDGPU_ENABLED", "inference", "amdgpu", "enabled"),
          scalar("INFERMON_LLM_ALERTS_ENABLED", "llm", "alerts", "enabled"),
          scalar("INFERMON_UI_ENABLED", "ui", "enabled"),
          scalar("INFERMON_WEB_LISTEN_ADDRESS", "web", "listen_address"),
          scalar("INFERMON_WEB_MAX_CONCURRENT_QUERIES", "web", "max_concurrent_queries"));

  private EnvOverrides() {}

  private static Var scalar(String name, String... path) {
    return new Var(name, List.of(path), false);
  }

  /** The tree with every override present in {@code env} applied. */
  static Node apply(Node root, Map<String, String> env) {
    if (!(root instanceof Node.MapNode)) {
      return root;
    }
    Node.MapNode out = (Node.MapNode) root;
    for (Var var : VARS) {
      String value = env.get(var.name());
      if (value != null) {
        Pos pos = Pos.of("env " + var.name());
        out = set(out, var.path(), 0, var.list() ? list(value, pos) : scalar(value, pos), pos);
      }
    }
    return out;
  }

  private static Node.MapNode set(Node.MapNode m, List<String> path, int i, Node value, Pos pos) {
    String key = path.get(i);
    if (i == path.size() - 1) {
      return m.with(key, new Node.Entry(pos, value));
    }
    Node.Entry existing = m.entries().get(key);
    Node.MapNode child =
        existing != null && existing.value() instanceof Node.MapNode
            ? (Node.MapNode) existing.value()
            : Node.MapNode.empty(pos);
    Pos keyPos = existing == null ? pos : existing.keyPos();
    return m.with(key, new Node.Entry(keyPos, set(child, path, i + 1, value, pos)));
  }

  private static Node scalar(String value, Pos pos) {
    String v = value.trim();
    if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
      return new Node.ScalarNode(pos, v, Node.ScalarType.BOOL);
    }
    if (v.matches("-?[0-9]+")) {
      return new Node.ScalarNode(pos, v, Node.ScalarType.INT);
    }
    return new Node.ScalarNode(pos, v, Node.ScalarType.STRING);
  }

  private static Node list(String value, Pos pos) {
    List<Node> items = new ArrayList<>();
    for (String part : value.split(",")) {
      if (!part.isBlank()) {
        items.add(new Node.ScalarNode(pos, part.trim(), Node.ScalarType.STRING));
      }
    }
    return new Node.ListNode(pos, items);
  }
}
