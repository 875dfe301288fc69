package dev.infermon.config;

import static dev.infermon.config.ConfigSchema.RELABEL;

import dev.infermon.config.yaml.MapView;
import dev.infermon.config.yaml.Node;
import dev.infermon.config.yaml.Reader;
import dev.infermon.model.relabel.Action;
import dev.infermon.model.relabel.RelabelConfig;
import dev.infermon.model.relabel.RelabelRegex;
import java.util.List;

/** Reads relabel configs; validation and its messages live in {@link RelabelConfig}. */
final class RelabelMapping {
  private RelabelMapping() {}

  /** Reads the list under {@code key}; {@code nullMessage} is Prometheus's text for a null item. */
  static List<RelabelConfig> list(MapView v, String key, String nullMessage) {
    Reader r = v.reader();
    return v.list(
        key,
        (node, path) -> {
          if (node instanceof Node.ScalarNode
              && ((Node.ScalarNode) node).type() == Node.ScalarType.NULL) {
            r.error(node.pos(), path, nullMessage);
            return null;
          }
          return one(r.view(node, node.pos(), path, RELABEL));
        });
  }

  private static RelabelConfig one(MapView v) {
    int before = v.reader().errors().size();
    RelabelConfig.Builder b = RelabelConfig.builder();
    if (v.node("source_labels") != null) {
      try {
        b.sourceLabels(v.strings("source_labels", List.of()));
      } catch (IllegalArgumentException e) {
        v.error("source_labels", e.getMessage());
      }
    }
    if (v.node("separator") != null) {
      b.separator(v.string("separator", ""));
    }
    if (v.node("regex") != null) {
      // Prometheus compiles an explicit null regex as "" (matches only the empty string).
      try {
        b.regex(RelabelRegex.of(v.string("regex", "")));
      } catch (IllegalArgumentException e) {
        v.error("regex", e.getMessage());
      }
    }
    b.modulus(v.count("modulus", 0));
    if (v.node("target_label") != null) {
      b.targetLabel(v.string("target_label", ""));
    }
    if (v.node("replacement") != null) {
      b.replacement(v.string("replacement", ""));
    }
    if (v.has("action")) {
      try {
        b.action(Action.fromYamlName(v.string("action", "")));
      } catch (IllegalArgumentException e) {
        v.error("action", e.getMessage());
      }
    } else if (v.node("action") != null) {
      v.error("action", "unknown relabel action \"\"");
    }
    v.finish();
    if (v.reader().errors().size() > before) {
      return null;
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      v.error(e.getMessage());
      return null;
    }
  }
}
