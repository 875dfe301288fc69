package dev.infermon.llm.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reading one catalog file's YAML nodes: scalars, lists, known keys and release names, each failure
 * a {@link CatalogException} naming the file and the entry. Split from {@link CatalogLoader}, which
 * says what the entries mean.
 */
final class CatalogNodes {
  private final String file;
  private final Supplier<List<ReleaseLine>> versions; // the file's own, once its versions are read

  CatalogNodes(String file, Supplier<List<ReleaseLine>> versions) {
    this.file = file;
    this.versions = versions;
  }

  /** The release line {@code n.key} names, or null when absent. */
  ReleaseLine release(JsonNode n, String key, String at) {
    if (!n.has(key) || n.get(key).isNull()) {
      return null;
    }
    String name = n.get(key).asText();
    for (ReleaseLine v : versions.get()) {
      if (v.name().equals(name)) {
        return v;
      }
    }
    throw fail(at + "." + key, "unknown release line \"" + name + "\" (not in versions)");
  }

  void checkKeys(JsonNode n, Set<String> allowed, String at) {
    if (!n.isObject()) {
      throw fail(at, "expected a mapping");
    }
    Iterator<String> names = n.fieldNames();
    while (names.hasNext()) {
      String k = names.next();
      if (!allowed.contains(k)) {
        throw fail(at, "unknown key \"" + k + "\"");
      }
    }
  }

  String text(JsonNode n, String key, String at, boolean required) {
    JsonNode v = n.get(key);
    if (v == null || v.isNull()) {
      if (required) {
        throw fail(at, key + " is required");
      }
      return null;
    }
    if (!v.isValueNode()) {
      throw fail(at + "." + key, "expected a scalar");
    }
    return v.asText();
  }

  JsonNode array(JsonNode n, String key, boolean required) {
    JsonNode v = n.path(key);
    if (!v.isArray()) {
      if (required) {
        throw fail(key, "a list is required");
      }
    }
    return v;
  }

  /**
   * A name variant ({@code name_variants[i]}); no {@code until}: a wrapper's spelling follows the
   * wrapper's release (Ray), not the engine's.
   */
  NameVariant nameVariant(JsonNode v, String at) {
    checkKeys(
        v,
        Set.of(
            "prefix",
            "optional_labels",
            "cite",
            "product",
            "serves",
            "renames",
            "required_labels",
            "own",
            "releases",
            "concurrency_flags"),
        at);
    Map<String, String> renames = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = v.path("renames").properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> r = it.next();
      renames.put(r.getKey(), r.getValue().asText());
    }
    try {
      return new NameVariant(
          text(v, "prefix", at, true),
          strings(v.path("optional_labels")),
          text(v, "cite", at, true),
          text(v, "product", at, false),
          new LinkedHashSet<>(strings(v.path("serves"))),
          renames,
          strings(v.path("required_labels")),
          new LinkedHashSet<>(strings(v.path("own"))),
          strings(v.path("releases")),
          strings(v.path("concurrency_flags")));
    } catch (IllegalArgumentException e) {
      throw fail(at, e.getMessage());
    }
  }

  static List<String> strings(JsonNode list) {
    List<String> out = new ArrayList<>();
    for (JsonNode s : list) {
      out.add(s.asText());
    }
    return out;
  }

  List<Double> doubles(JsonNode list) {
    List<Double> out = new ArrayList<>();
    for (JsonNode d : list) {
      if (!d.isNumber()) {
        throw new IllegalArgumentException("bucket bound is not a number: " + d);
      }
      out.add(d.asDouble());
    }
    return out;
  }

  CatalogException fail(String at, String what) {
    return new CatalogException(file + (at.isEmpty() ? "" : ": " + at) + ": " + what);
  }
}
