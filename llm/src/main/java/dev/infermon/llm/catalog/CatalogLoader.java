package dev.infermon.llm.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.infermon.llm.signals.Aggregation;
import dev.infermon.llm.signals.Signal;
import dev.infermon.model.metadata.MetricType;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
          "disaggregated");
  private static final Set<String> METRIC_KEYS =
      Set.of(
          "name",
          "type",
          "declared_type",
          "unit",
          "labels",
          "open_labels",
          "since",
          "history",
          "condition",
          "buckets",
          "lazy",
          "version_evidence",
          "prefixless",
          "note",
          "avoid",
          "cite");

  private final CatalogNodes nodes;
  private List<ReleaseLine> versions = List.of();
  private final Map<String, List<LabelSpec>> labelGroups = new LinkedHashMap<>();
  private final Map<String, JsonNode> bucketSets = new LinkedHashMap<>();

  private CatalogLoader(String file) {
    this.nodes = new CatalogNodes(file, () -> versions);
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
    versions = List.copyOf(lines);
    boolean lazyDefault = root.path("lazy").asBoolean(false);
    String counterSuffix =
        root.has("counter_suffix") ? root.get("counter_suffix").asText() : "_total";

    List<NameVariant> variants = new ArrayList<>();
    int i = 0;
    for (JsonNode v : nodes.array(root, "name_variants", true)) {
      variants.add(nodes.nameVariant(v, "name_variants[" + i++ + "]"));
    }
    if (variants.isEmpty()) {
      throw nodes.fail("name_variants", "at least one name variant is required");
    }
    Iterator<Map.Entry<String, JsonNode>> groups =
        root.path("label_groups").properties().iterator();
    while (groups.hasNext()) {
      Map.Entry<String, JsonNode> g = groups.next();
      labelGroups.put(g.getKey(), labels(g.getValue(), "label_groups." + g.getKey(), false));
    }
    Iterator<Map.Entry<String, JsonNode>> sets = root.path("bucket_sets").properties().iterator();
    while (sets.hasNext()) {
      Map.Entry<String, JsonNode> s = sets.next();
      bucketSets.put(s.getKey(), s.getValue());
    }

    List<MetricEntry> metrics = new ArrayList<>();
    i = 0;
    for (JsonNode m : nodes.array(root, "metrics", true)) {
      metrics.add(metric(engine, m, "metrics[" + i++ + "]", lazyDefault, counterSuffix));
    }
    checkDisjoint(metrics);
    for (NameVariant v : variants) {
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

    Map<Signal, List<SignalSource>> signals = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> sigs = root.path("signals").properties().iterator();
    while (sigs.hasNext()) {
      Map.Entry<String, JsonNode> s = sigs.next();
      String at = "signals." + s.getKey();
      Signal signal;
      try {
        signal = Signal.fromKey(s.getKey());
      } catch (IllegalArgumentException e) {
        throw nodes.fail(at, e.getMessage());
      }
      List<SignalSource> sources = new ArrayList<>();
      int j = 0;
      for (JsonNode src : s.getValue()) {
        sources.add(source(engine, signal, src, at + "[" + j++ + "]", metrics));
      }
      signals.put(signal, sources);
    }
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
        disaggregated(root));
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

  private Avoidance avoid(JsonNode a, String at) {
    nodes.checkKeys(a, Set.of("why", "use"), at);
    List<Avoidance.Replacement> use = new ArrayList<>();
    int i = 0;
    for (JsonNode u : a.path("use")) {
      String uat = at + ".use[" + i++ + "]";
      nodes.checkKeys(u, Set.of("expr", "metrics"), uat);
      try {
        use.add(
            new Avoidance.Replacement(
                nodes.text(u, "expr", uat, true), CatalogNodes.strings(u.path("metrics"))));
      } catch (IllegalArgumentException e) {
        throw nodes.fail(uat, e.getMessage());
      }
    }
    try {
      return new Avoidance(nodes.text(a, "why", at, true), use);
    } catch (IllegalArgumentException e) {
      throw nodes.fail(at, e.getMessage());
    }
  }

  private MetricEntry metric(
      String engine, JsonNode m, String at, boolean lazyDefault, String counterSuffix) {
    nodes.checkKeys(m, METRIC_KEYS, at);
    String name = nodes.text(m, "name", at, true);
    at = at + " (" + name + ")";
    MetricType type;
    try {
      type = MetricType.parse(nodes.text(m, "type", at, true));
    } catch (IllegalArgumentException e) {
      throw nodes.fail(at, e.getMessage());
    }
    MetricType declared = type;
    if (m.has("declared_type")) {
      try {
        declared = MetricType.parse(nodes.text(m, "declared_type", at, true));
      } catch (IllegalArgumentException e) {
        throw nodes.fail(at + ".declared_type", e.getMessage());
      }
      if (declared == type) {
        throw nodes.fail(at + ".declared_type", "equals type: leave it out");
      }
    }
    if (type == MetricType.COUNTER && !name.endsWith(counterSuffix)) {
      throw nodes.fail(at, "a counter is exposed with \"" + counterSuffix + "\"");
    }
    ReleaseLine since = nodes.release(m, "since", at);
    if (since == null) {
      throw nodes.fail(at, "since is required");
    }
    History history = History.NONE;
    if (m.has("history")) {
      JsonNode h = m.get("history");
      String hat = at + ".history";
      nodes.checkKeys(
          h, Set.of("renamed_from", "replaced_by", "deprecated", "hidden", "removed", "note"), hat);
      history =
          new History(
              nodes.text(h, "renamed_from", hat, false),
              nodes.text(h, "replaced_by", hat, false),
              nodes.release(h, "deprecated", hat),
              nodes.release(h, "hidden", hat),
              nodes.release(h, "removed", hat),
              nodes.text(h, "note", hat, false));
      if (history.removed() != null && !since.before(history.removed())) {
        throw nodes.fail(hat, "removed before it was added");
      }
    }
    Condition condition = Condition.ALWAYS;
    if (m.has("condition")) {
      JsonNode c = m.get("condition");
      String cat = at + ".condition";
      nodes.checkKeys(c, Set.of("kind", "flag", "registered"), cat);
      try {
        condition =
            new Condition(
                Condition.Kind.valueOf(
                    nodes.text(c, "kind", cat, true).toUpperCase(java.util.Locale.ROOT)),
                nodes.text(c, "flag", cat, true),
                c.path("registered").asBoolean(false));
      } catch (IllegalArgumentException e) {
        throw nodes.fail(cat, e.getMessage());
      }
    }
    List<BucketSpec> buckets = List.of();
    if (m.has("buckets")) {
      JsonNode b = m.get("buckets");
      if (b.isTextual()) {
        JsonNode set = bucketSets.get(b.asText());
        if (set == null) {
          throw nodes.fail(at, "unknown bucket set \"" + b.asText() + "\"");
        }
        b = set;
      }
      buckets = buckets(b, at + ".buckets");
    }
    try {
      return new MetricEntry(
          engine,
          name,
          type,
          declared,
          nodes.text(m, "unit", at, true),
          labels(m.path("labels"), at + ".labels", true),
          m.path("open_labels").asBoolean(false),
          since,
          history,
          condition,
          buckets,
          m.path("lazy").asBoolean(lazyDefault),
          m.path("version_evidence").asBoolean(true),
          m.path("prefixless").asBoolean(false),
          nodes.text(m, "note", at, false),
          m.has("avoid") ? avoid(m.get("avoid"), at + ".avoid") : null,
          nodes.text(m, "cite", at, false));
    } catch (IllegalArgumentException e) {
      throw nodes.fail(at, e.getMessage());
    }
  }

  private List<BucketSpec> buckets(JsonNode list, String at) {
    if (!list.isArray() || list.isEmpty()) {
      throw nodes.fail(at, "a non-empty list of bucket specs is required");
    }
    List<BucketSpec> out = new ArrayList<>();
    int i = 0;
    for (JsonNode b : list) {
      String bat = at + "[" + i++ + "]";
      try {
        if (b.isArray()) {
          out.add(
              new BucketSpec(null, null, BucketSpec.Rule.FIXED, nodes.doubles(b), 0, 0, 0, null));
          continue;
        }
        nodes.checkKeys(
            b, Set.of("since", "until", "bounds", "rule", "start", "factor", "count", "note"), bat);
        BucketSpec.Rule rule =
            b.has("bounds")
                ? BucketSpec.Rule.FIXED
                : BucketSpec.Rule.valueOf(
                    nodes.text(b, "rule", bat, true).toUpperCase(java.util.Locale.ROOT));
        out.add(
            new BucketSpec(
                nodes.release(b, "since", bat),
                nodes.release(b, "until", bat),
                rule,
                b.has("bounds") ? nodes.doubles(b.get("bounds")) : List.of(),
                b.path("start").asDouble(0),
                b.path("factor").asDouble(0),
                b.path("count").asInt(0),
                nodes.text(b, "note", bat, false)));
      } catch (IllegalArgumentException e) {
        throw nodes.fail(bat, e.getMessage());
      }
    }
    return out;
  }

  private List<LabelSpec> labels(JsonNode list, String at, boolean groupsAllowed) {
    if (list.isMissingNode()) {
      throw nodes.fail(at, "labels are required (an empty list when there are none)");
    }
    List<LabelSpec> out = new ArrayList<>();
    int i = 0;
    for (JsonNode l : list) {
      String lat = at + "[" + i++ + "]";
      if (l.isTextual()) {
        List<LabelSpec> group = groupsAllowed ? labelGroups.get(l.asText()) : null;
        if (group != null) {
          out.addAll(group);
        } else {
          out.add(new LabelSpec(l.asText(), null, null, false, null));
        }
        continue;
      }
      nodes.checkKeys(l, Set.of("name", "since", "until", "optional", "note"), lat);
      out.add(
          new LabelSpec(
              nodes.text(l, "name", lat, true),
              nodes.release(l, "since", lat),
              nodes.release(l, "until", lat),
              l.path("optional").asBoolean(false),
              nodes.text(l, "note", lat, false)));
    }
    return out;
  }

  private SignalSource source(
      String engine, Signal signal, JsonNode s, String at, List<MetricEntry> metrics) {
    nodes.checkKeys(
        s,
        Set.of(
            "metric",
            "metrics",
            "agg",
            "dedupe",
            "match",
            "by",
            "scale",
            "zero_when_absent",
            "since",
            "note",
            "value_labels",
            "model_from_pod",
            "series"),
        at);
    List<String> names =
        s.has("metrics")
            ? CatalogNodes.strings(s.get("metrics"))
            : List.of(nodes.text(s, "metric", at, true));
    for (String n : names) {
      boolean known = false;
      for (MetricEntry m : metrics) {
        known |= m.name().equals(n);
      }
      if (!known) {
        throw nodes.fail(at, "signal source names unknown metric \"" + n + "\"");
      }
    }
    if (s.has("value_labels")
        && (!s.get("value_labels").isArray() || s.get("value_labels").isEmpty())) {
      throw nodes.fail(at + ".value_labels", "a list of label names is required");
    }
    Map<String, String> match = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = s.path("match").properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      match.put(e.getKey(), e.getValue().asText());
    }
    try {
      return new SignalSource(
          engine,
          signal,
          names,
          s.has("agg") ? Aggregation.parse(s.get("agg").asText()) : Aggregation.SUM,
          s.path("dedupe").asBoolean(false),
          match,
          CatalogNodes.strings(s.path("by")),
          s.path("scale").asDouble(1),
          s.path("zero_when_absent").asBoolean(false),
          nodes.release(s, "since", at),
          nodes.text(s, "note", at, false),
          CatalogNodes.strings(s.path("value_labels")),
          s.path("model_from_pod").asBoolean(false),
          series(signal, s, at, names, metrics));
    } catch (IllegalArgumentException e) {
      throw nodes.fail(at, e.getMessage());
    }
  }

  /**
   * The {@code series} of a source: only a counter signal read from histograms' {@code _sum} or
   * {@code _count}.
   */
  private String series(
      Signal signal, JsonNode s, String at, List<String> names, List<MetricEntry> metrics) {
    if (!s.has("series")) {
      return "";
    }
    String series = s.get("series").asText();
    if (signal.kind() != Signal.Kind.COUNTER) {
      throw nodes.fail(at, "series is for counter signals only, not " + signal.key());
    }
    for (MetricEntry m : metrics) {
      if (names.contains(m.name()) && m.type() != MetricType.HISTOGRAM) {
        throw nodes.fail(at, "series reads a histogram's samples; " + m.name() + " is not one");
      }
    }
    return series;
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
