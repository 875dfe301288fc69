package dev.infermon.llm.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.infermon.llm.signals.Signal;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one engine's catalog data (YAML) into immutable records and validates it: unknown keys,
 * unknown release lines, counters without their suffix, histograms without buckets, signals that
 * name no family, entries without a citation. Every problem names the file and the entry.
 */
public final class CatalogLoader {
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Set<String> TOP_KEYS =
      Set.of(
          "engine",
          "title",
          "versions",
          "ignore_prefixes",
          "name_variants",
          "label_groups",
          "bucket_sets",
          "metrics",
          "signals",
          "lazy",
          "dedupe_labels",
          "counter_suffix",
          "created_series",
          "written_together",
          "metrics_on",
          "metrics_off",
          "model_from_label",
          "model_placeholder",
          "gpu_exporter",
          "disaggregated",
          "concurrency_flags",
          "not_exposed",
          "runs_in",
          "absent_on");
  private final CatalogNodes nodes;
  private List<ReleaseLine> versions = List.of();
  private final MetricReader metricReader;
  private final SignalReader signalReader;

  private CatalogLoader(String file) {
    this.nodes = new CatalogNodes(file, () -> versions);
    this.metricReader = new MetricReader(nodes);
    this.signalReader = new SignalReader(nodes);
  }

  /** Loads the built-in data of {@code engine} from the class path. */
  static EngineCatalog loadResource(String engine) {
    String path = "/dev/infermon/llm/catalog/" + engine + ".yaml";
    try (InputStream in = CatalogLoader.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new CatalogException("catalog data missing from the class path: " + path);
      }
      return load(engine + ".yaml", in);
    } catch (IOException e) {
      throw new CatalogException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses and validates one engine's data.
   *
   * @param file the name used in error messages
   * @throws CatalogException naming the file and entry of the first problem
   */
  public static EngineCatalog load(String file, InputStream yaml) {
    JsonNode root;
    try {
      root = YAML.readTree(yaml);
    } catch (IOException e) {
      throw new CatalogException(file + ": not valid YAML: " + e.getMessage(), e);
    }
    return new CatalogLoader(file).read(root);
  }

  private EngineCatalog read(JsonNode root) {
    if (root == null || !root.isObject()) {
      throw nodes.fail("", "the document must be a mapping");
    }
    nodes.checkKeys(root, TOP_KEYS, "");
    String engine = nodes.text(root, "engine", "", true);
    String title = nodes.text(root, "title", "", true);
    versions = versions(root);

    List<NameVariant> variants = variants(root);
    List<MetricEntry> metrics = metricReader.read(root, engine);
    checkDisjoint(metrics);
    checkNames(variants, metrics);
    Map<Signal, List<SignalSource>> signals = signalReader.read(root, engine, metrics);
    try {
      return catalog(root, engine, title, variants, metrics, signals);
    } catch (IllegalArgumentException e) {
      throw nodes.fail("", e.getMessage());
    }
  }

  private EngineCatalog catalog(
      JsonNode root,
      String engine,
      String title,
      List<NameVariant> variants,
      List<MetricEntry> metrics,
      Map<Signal, List<SignalSource>> signals) {
    return new EngineCatalog(
        engine,
        title,
        versions,
        variants,
        metrics,
        signals,
        CatalogNodes.strings(root.path("ignore_prefixes")),
        CatalogNodes.strings(root.path("dedupe_labels")),
        created(root),
        writers(root, metrics),
        root.path("metrics_on").asText(""),
        root.path("metrics_off").asText(""),
        root.path("model_from_label").asText(""),
        root.has("model_placeholder")
            ? Optional.of(root.path("model_placeholder").asText(""))
            : Optional.empty(),
        gpuLabel(root, "model_label"),
        gpuLabel(root, "index_label"),
        disaggregated(root),
        CatalogNodes.strings(root.path("concurrency_flags")),
        signalReader.notExposed(root, signals),
        placement(root));
  }

  /** {@code versions}: the release lines, oldest first. */
  private List<ReleaseLine> versions(JsonNode root) {
    JsonNode vs = root.path("versions");
    if (!vs.isArray() || vs.isEmpty()) {
      throw nodes.fail("versions", "a non-empty list of release lines is required");
    }
    List<ReleaseLine> lines = new ArrayList<>();
    for (JsonNode v : vs) {
      String name = v.asText();
      for (ReleaseLine l : lines) {
        if (l.name().equals(name)) {
          throw nodes.fail("versions", "release line " + name + " is listed twice");
        }
      }
      lines.add(new ReleaseLine(name, lines.size()));
    }
    return List.copyOf(lines);
  }

  /** {@code name_variants}: at least one. */
  private List<NameVariant> variants(JsonNode root) {
    List<NameVariant> variants = new ArrayList<>();
    int i = 0;
    for (JsonNode v : nodes.array(root, "name_variants", true)) {
      variants.add(nodes.nameVariant(v, "name_variants[" + i++ + "]"));
    }
    if (variants.isEmpty()) {
      throw nodes.fail("name_variants", "at least one name variant is required");
    }
    return variants;
  }

  /** The metrics the name variants and the avoidances' replacements name must be entries. */
  private void checkNames(List<NameVariant> variants, List<MetricEntry> metrics) {
    for (NameVariant v : variants) {
      for (String r : v.releases()) {
        if (versions.stream().noneMatch(x -> x.name().equals(r))) {
          throw nodes.fail(
              "name_variants \"" + v.prefix() + "\"", "unknown release line \"" + r + "\"");
        }
      }
      Set<String> named = new LinkedHashSet<>(v.serves());
      named.addAll(v.renames().keySet());
      for (String n : named) {
        if (metrics.stream().noneMatch(x -> x.name().equals(n))) {
          throw nodes.fail("name_variants \"" + v.prefix() + "\"", "unknown metric \"" + n + "\"");
        }
      }
    }
    for (MetricEntry m : metrics) {
      if (m.avoid() == null) {
        continue;
      }
      for (Avoidance.Replacement r : m.avoid().use()) {
        for (String n : r.metrics()) {
          if (metrics.stream().noneMatch(x -> x.name().equals(n))) {
            throw nodes.fail(
                m.name() + ".avoid", "the replacement names unknown metric \"" + n + "\"");
          }
        }
      }
    }
  }

  /**
   * {@code gpu_exporter: {model_label, index_label}}: the labels of a GPU exporter's series naming
   * the card model and the GPU index; empty for an engine, which has no such block.
   */
  private String gpuLabel(JsonNode root, String key) {
    JsonNode g = root.path("gpu_exporter");
    if (g.isMissingNode()) {
      return "";
    }
    nodes.checkKeys(g, Set.of("model_label", "index_label", "note"), "gpu_exporter");
    return nodes.text(g, key, "gpu_exporter", true);
  }

  /**
   * {@code runs_in} and {@code absent_on: [{engine | product, why, cite, since, until, worker_of,
   * kind, flag}]}: the host of a component and what its signals' empty panels say on the pods of
   * other engines or products, per band of the host's releases ({@code since}, {@code until}: the
   * host's lines, checked by {@link Catalog}) or for the host's pods that are {@code worker_of}'s
   * workers; {@code kind} {@code behind_flag} (the default) or {@code not_exposed} (no setting of
   * these releases turns it on).
   */
  private Placement placement(JsonNode root) {
    List<Absence> absent = new ArrayList<>();
    Set<String> seen = new java.util.HashSet<>();
    int i = 0;
    for (JsonNode a : nodes.array(root, "absent_on", false)) {
      String at = "absent_on[" + i++ + "]";
      nodes.checkKeys(
          a,
          Set.of("engine", "product", "why", "cite", "since", "until", "worker_of", "kind", "flag"),
          at);
      nodes.text(a, "cite", at, true);
      if (a.has("engine") == a.has("product")) {
        throw nodes.fail(at, "exactly one of engine and product is required");
      }
      String kind = a.path("kind").asText("behind_flag");
      if (!kind.equals("behind_flag") && !kind.equals("not_exposed")) {
        throw nodes.fail(at + ".kind", "behind_flag or not_exposed, got \"" + kind + "\"");
      }
      Absence x =
          new Absence(
              nodes.text(a, a.has("engine") ? "engine" : "product", at, true),
              a.path("worker_of").asText(""),
              a.path("since").asText(""),
              a.path("until").asText(""),
              kind.equals("behind_flag"),
              a.path("flag").asText(""),
              nodes.text(a, "why", at, true));
      if (!seen.add(x.on() + "|" + x.workerOf() + "|" + x.since() + "|" + x.until())) {
        throw nodes.fail(at, "\"" + x.on() + "\" is listed twice for the same releases");
      }
      absent.add(x);
    }
    return new Placement(root.path("runs_in").asText(""), absent);
  }

  /** {@code disaggregated: false} for an engine without prefill/decode roles; true when absent. */
  private boolean disaggregated(JsonNode root) {
    JsonNode d = root.path("disaggregated");
    if (!d.isMissingNode() && !d.isBoolean()) {
      throw nodes.fail("disaggregated", "must be true or false, got \"" + d.asText() + "\"");
    }
    return d.asBoolean(true);
  }

  /** {@code written_together: [{name, writer, metrics, cite}]}: families written at once. */
  private List<WriterGroup> writers(JsonNode root, List<MetricEntry> metrics) {
    List<WriterGroup> out = new ArrayList<>();
    int i = 0;
    for (JsonNode g : nodes.array(root, "written_together", false)) {
      String at = "written_together[" + i++ + "]";
      nodes.checkKeys(g, Set.of("name", "writer", "when", "metrics", "note", "cite"), at);
      nodes.text(g, "cite", at, true);
      List<String> names = CatalogNodes.strings(g.path("metrics"));
      for (String n : names) {
        if (metrics.stream().noneMatch(m -> m.name().equals(n))) {
          throw nodes.fail(at, "unknown metric \"" + n + "\"");
        }
      }
      try {
        out.add(
            new WriterGroup(
                nodes.text(g, "name", at, true),
                nodes.text(g, "writer", at, true),
                nodes.text(g, "when", at, true),
                names));
      } catch (IllegalArgumentException e) {
        throw nodes.fail(at, e.getMessage());
      }
    }
    return out;
  }

  /** {@code created_series: {since, cite}}: from which release counters carry a _created twin. */
  private ReleaseLine created(JsonNode root) {
    if (!root.has("created_series")) {
      return null;
    }
    JsonNode c = root.get("created_series");
    nodes.checkKeys(c, Set.of("since", "note", "cite"), "created_series");
    nodes.text(c, "cite", "created_series", true);
    ReleaseLine since = nodes.release(c, "since", "created_series");
    if (since == null) {
      throw nodes.fail("created_series", "since is required");
    }
    return since;
  }

  /** Entries sharing a name (a type change between releases) must not overlap in releases. */
  private void checkDisjoint(List<MetricEntry> metrics) {
    for (int a = 0; a < metrics.size(); a++) {
      for (int b = a + 1; b < metrics.size(); b++) {
        MetricEntry x = metrics.get(a);
        MetricEntry y = metrics.get(b);
        if (!x.name().equals(y.name())) {
          continue;
        }
        boolean overlap = false;
        for (ReleaseLine v : versions) {
          overlap |= x.existsIn(v) && y.existsIn(v);
        }
        if (overlap) {
          throw nodes.fail("metrics", x.name() + " is listed twice for the same releases");
        }
      }
    }
  }
}
