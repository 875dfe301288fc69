package dev.infermon.llm.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.infermon.model.metadata.MetricType;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The names routers and schedulers expose ({@code routers.yaml}): not engine metrics, so lint never
 * judges them against an endpoint, but knows them (no "unknown metric" for the production stack
 * router's {@code vllm:current_qps}), knows which generation a scheduler name belongs to ({@code
 * inference_model_*} before Gateway API Inference Extension #1567) and, under the prefixes the
 * schedulers own, which names never existed; and, for the router level, how each router is told
 * from an engine and which of its families measure each {@link
 * dev.infermon.llm.signals.RouterSignal} ({@link #routers()}). Immutable; thread-safe.
 */
public final class NonEngineCatalog {
  /** No routers known (a catalog built from engine data alone). */
  public static final NonEngineCatalog EMPTY =
      new NonEngineCatalog(Map.of(), List.of(), List.of(), Map.of(), List.of());

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Set<String> TOP_KEYS =
      Set.of("not_an_engine", "components", "judged_prefixes", "aliases", "families", "routers");
  private static final Set<String> BLOCK_KEYS =
      Set.of(
          "component",
          "prefix",
          "since",
          "deprecated",
          "until",
          "replaced_by_prefix",
          "note",
          "cite",
          "counters",
          "gauges",
          "histograms");

  private final Map<String, NonEngineMetric> byName;
  private final List<String> judgedPrefixes;
  private final List<Alias> aliases;
  private final Map<String, String> titles;
  private final List<Router> routers;

  private NonEngineCatalog(
      Map<String, NonEngineMetric> byName,
      List<String> judgedPrefixes,
      List<Alias> aliases,
      Map<String, String> titles,
      List<Router> routers) {
    this.byName = Map.copyOf(byName);
    this.judgedPrefixes = List.copyOf(judgedPrefixes);
    this.aliases = List.copyOf(aliases);
    this.titles = Map.copyOf(titles);
    this.routers = List.copyOf(routers);
  }

  /** The routers the router level reads ({@code routers:}), in the file's order. */
  public List<Router> routers() {
    return routers;
  }

  /** The router a page with {@code families} belongs to, if any. */
  public Optional<Router> router(Set<String> families) {
    for (Router r : routers) {
      if (r.signedBy(families)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /** The display name of a component ({@code llm-d router endpoint picker}), else its key. */
  public String title(String component) {
    return titles.getOrDefault(component, component);
  }

  /**
   * A prefix that once meant another ({@code llm_d_router_epp_} for {@code llm_d_epp_}): a name
   * under it is known when the name under {@code means} is.
   */
  public record Alias(String prefix, String means, String note) {}

  /** The family behind a sample name ({@code x_bucket} is histogram {@code x}), if known. */
  public Optional<NonEngineMetric> lookup(String sample) {
    NonEngineMetric m = byName.get(sample);
    if (m != null) {
      return Optional.of(m);
    }
    for (String suffix : new String[] {"_bucket", "_sum", "_count"}) {
      if (sample.endsWith(suffix)) {
        NonEngineMetric h = byName.get(sample.substring(0, sample.length() - suffix.length()));
        if (h != null && h.sampleNames().contains(sample)) {
          return Optional.of(h);
        }
      }
    }
    for (Alias a : aliases) {
      if (sample.startsWith(a.prefix())) {
        Optional<NonEngineMetric> meant = lookup(a.means() + sample.substring(a.prefix().length()));
        if (meant.isPresent()) {
          return meant;
        }
      }
    }
    return Optional.empty();
  }

  /** Whether a name is under a prefix a scheduler owns, so an unknown one never existed. */
  public boolean judges(String sample) {
    for (String p : judgedPrefixes) {
      if (sample.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Known names that measure what {@code sample} names under another generation's prefix: the same
   * rest after the prefix, or a rest that ends with it ({@code llm_d_router_epp_index_lookup_hits}
   * is {@code llm_d_epp_kv_cache_index_lookup_hits}). Current names first.
   */
  public List<NonEngineMetric> sameQuantity(String sample) {
    String rest = sample;
    for (String p : judgedPrefixes) {
      if (sample.startsWith(p) && p.length() < sample.length()) {
        rest = sample.substring(p.length());
        break;
      }
    }
    List<NonEngineMetric> current = new ArrayList<>();
    List<NonEngineMetric> old = new ArrayList<>();
    for (NonEngineMetric m : byName.values()) {
      for (String n : m.sampleNames()) {
        if (!n.equals(sample) && (n.endsWith("_" + rest))) {
          (m.gone() || !m.deprecated().isEmpty() ? old : current).add(m);
          break;
        }
      }
    }
    current.sort(java.util.Comparator.comparing(NonEngineMetric::name));
    old.sort(java.util.Comparator.comparing(NonEngineMetric::name));
    current.addAll(old);
    return current;
  }

  /** Every known family, by name. */
  public Map<String, NonEngineMetric> families() {
    return byName;
  }

  /** Loads the built-in list from the class path. */
  static NonEngineCatalog loadResource() {
    String path = "/dev/infermon/llm/catalog/routers.yaml";
    try (InputStream in = NonEngineCatalog.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new CatalogException("catalog data missing from the class path: " + path);
      }
      return load("routers.yaml", in);
    } catch (IOException e) {
      throw new CatalogException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses and validates the list.
   *
   * @throws CatalogException naming the file and block of the first problem
   */
  public static NonEngineCatalog load(String file, InputStream yaml) {
    JsonNode root;
    try {
      root = YAML.readTree(yaml);
    } catch (IOException e) {
      throw new CatalogException(file + ": not valid YAML: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new CatalogException(file + ": the document must be a mapping");
    }
    keys(file, root, TOP_KEYS, "");
    if (!root.path("not_an_engine").asBoolean(false)) {
      throw new CatalogException(
          file + ": not_an_engine: true is required (these are not engines)");
    }
    Map<String, String> components = new LinkedHashMap<>();
    Map<String, String> titles = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> cs = root.path("components").properties().iterator();
    while (cs.hasNext()) {
      Map.Entry<String, JsonNode> c = cs.next();
      String at = "components." + c.getKey();
      keys(file, c.getValue(), Set.of("title", "cite"), at);
      components.put(c.getKey(), required(file, c.getValue(), "cite", at));
      titles.put(c.getKey(), required(file, c.getValue(), "title", at));
    }
    List<String> prefixes = new ArrayList<>();
    root.path("judged_prefixes").forEach(p -> prefixes.add(p.asText()));
    List<Alias> aliases = new ArrayList<>();
    int i = 0;
    for (JsonNode a : root.path("aliases")) {
      String at = "aliases[" + i++ + "]";
      keys(file, a, Set.of("prefix", "means", "note"), at);
      aliases.add(
          new Alias(
              required(file, a, "prefix", at),
              required(file, a, "means", at),
              a.path("note").asText("")));
    }
    Map<String, NonEngineMetric> byName = new LinkedHashMap<>();
    i = 0;
    for (JsonNode b : root.path("families")) {
      block(file, b, "families[" + i++ + "]", components, byName);
    }
    List<Router> routers = RouterLoader.load(file, root.path("routers"), titles, byName);
    return new NonEngineCatalog(byName, prefixes, aliases, titles, routers);
  }

  private static void block(
      String file,
      JsonNode b,
      String at,
      Map<String, String> components,
      Map<String, NonEngineMetric> out) {
    keys(file, b, BLOCK_KEYS, at);
    String component = required(file, b, "component", at);
    String componentCite = components.get(component);
    if (componentCite == null) {
      throw new CatalogException(file + ": " + at + ": unknown component \"" + component + "\"");
    }
    String prefix = b.path("prefix").asText("");
    String cite = b.path("cite").asText(componentCite);
    String replacedPrefix = b.path("replaced_by_prefix").asText("");
    for (String kind : new String[] {"counters", "gauges", "histograms"}) {
      MetricType type =
          MetricType.parse(kind.substring(0, kind.length() - 1).toLowerCase(Locale.ROOT));
      for (JsonNode n : b.path(kind)) {
        String name = prefix + n.asText();
        if (out.containsKey(name)) {
          throw new CatalogException(file + ": " + at + ": " + name + " is listed twice");
        }
        try {
          out.put(
              name,
              new NonEngineMetric(
                  name,
                  component,
                  type,
                  b.path("since").asText(""),
                  b.path("deprecated").asText(""),
                  b.path("until").asText(""),
                  replacedPrefix.isEmpty() ? "" : replacedPrefix + n.asText(),
                  b.path("note").asText(""),
                  cite));
        } catch (IllegalArgumentException e) {
          throw new CatalogException(file + ": " + at + ": " + e.getMessage(), e);
        }
      }
    }
  }

  static void keys(String file, JsonNode n, Set<String> allowed, String at) {
    if (!n.isObject()) {
      throw new CatalogException(file + ": " + at + ": expected a mapping");
    }
    Iterator<String> names = n.fieldNames();
    while (names.hasNext()) {
      String k = names.next();
      if (!allowed.contains(k)) {
        throw new CatalogException(file + ": " + at + ": unknown key \"" + k + "\"");
      }
    }
  }

  static String required(String file, JsonNode n, String key, String at) {
    String v = n.path(key).asText("");
    if (v.isBlank()) {
      throw new CatalogException(file + ": " + at + ": " + key + " is required");
    }
    return v;
  }
}
