package dev.infermon.llm.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a catalog file's {@code metrics} section, with the {@code label_groups} and {@code
 * bucket_sets} its entries name: types, releases, history, conditions, buckets, labels and
 * avoidances, each problem naming the file and the entry. Part of {@link CatalogLoader}; one per
 * file read.
 */
final class MetricReader {
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
          "not_on_roles",
          "cite");

  private final CatalogNodes nodes;
  private final Map<String, List<LabelSpec>> labelGroups = new LinkedHashMap<>();
  private final Map<String, JsonNode> bucketSets = new LinkedHashMap<>();

  MetricReader(CatalogNodes nodes) {
    this.nodes = nodes;
  }

  /** The entries of {@code metrics}, after the label groups and bucket sets they may name. */
  List<MetricEntry> read(JsonNode root, String engine) {
    boolean lazyDefault = root.path("lazy").asBoolean(false);
    String counterSuffix =
        root.has("counter_suffix") ? root.get("counter_suffix").asText() : "_total";
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
    int i = 0;
    for (JsonNode m : nodes.array(root, "metrics", true)) {
      metrics.add(metric(engine, m, "metrics[" + i++ + "]", lazyDefault, counterSuffix));
    }
    return metrics;
  }

  /** {@code not_on_roles}: role to why, each why required. */
  private Map<String, String> notOnRoles(JsonNode m, String at) {
    Map<String, String> out = new LinkedHashMap<>();
    int i = 0;
    for (JsonNode r : nodes.array(m, "not_on_roles", false)) {
      String rat = at + ".not_on_roles[" + i++ + "]";
      nodes.checkKeys(r, Set.of("role", "why"), rat);
      out.put(nodes.text(r, "role", rat, true), nodes.text(r, "why", rat, true));
    }
    return out;
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
    MetricType declared = declaredType(m, type, at);
    if (type == MetricType.COUNTER && !name.endsWith(counterSuffix)) {
      throw nodes.fail(at, "a counter is exposed with \"" + counterSuffix + "\"");
    }
    ReleaseLine since = nodes.release(m, "since", at);
    if (since == null) {
      throw nodes.fail(at, "since is required");
    }
    History history =
        m.has("history") ? history(m.get("history"), since, at + ".history") : History.NONE;
    Condition condition =
        m.has("condition") ? condition(m.get("condition"), at + ".condition") : Condition.ALWAYS;
    List<BucketSpec> buckets = m.has("buckets") ? bucketsOf(m.get("buckets"), at) : List.of();
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
          notOnRoles(m, at),
          nodes.text(m, "cite", at, false));
    } catch (IllegalArgumentException e) {
      throw nodes.fail(at, e.getMessage());
    }
  }

  /** The type the page's TYPE line declares, when it differs from the one the samples have. */
  private MetricType declaredType(JsonNode m, MetricType type, String at) {
    if (!m.has("declared_type")) {
      return type;
    }
    MetricType declared;
    try {
      declared = MetricType.parse(nodes.text(m, "declared_type", at, true));
    } catch (IllegalArgumentException e) {
      throw nodes.fail(at + ".declared_type", e.getMessage());
    }
    if (declared == type) {
      throw nodes.fail(at + ".declared_type", "equals type: leave it out");
    }
    return declared;
  }

  private History history(JsonNode h, ReleaseLine since, String at) {
    nodes.checkKeys(
        h, Set.of("renamed_from", "replaced_by", "deprecated", "hidden", "removed", "note"), at);
    History history =
        new History(
            nodes.text(h, "renamed_from", at, false),
            nodes.text(h, "replaced_by", at, false),
            nodes.release(h, "deprecated", at),
            nodes.release(h, "hidden", at),
            nodes.release(h, "removed", at),
            nodes.text(h, "note", at, false));
    if (history.removed() != null && !since.before(history.removed())) {
      throw nodes.fail(at, "removed before it was added");
    }
    return history;
  }

  private Condition condition(JsonNode c, String at) {
    nodes.checkKeys(c, Set.of("kind", "flag", "registered"), at);
    try {
      return new Condition(
          Condition.Kind.valueOf(
              nodes.text(c, "kind", at, true).toUpperCase(java.util.Locale.ROOT)),
          nodes.text(c, "flag", at, true),
          c.path("registered").asBoolean(false));
    } catch (IllegalArgumentException e) {
      throw nodes.fail(at, e.getMessage());
    }
  }

  /** A metric's buckets: a list, or the name of a bucket set of the file. */
  private List<BucketSpec> bucketsOf(JsonNode b, String at) {
    if (b.isTextual()) {
      JsonNode set = bucketSets.get(b.asText());
      if (set == null) {
        throw nodes.fail(at, "unknown bucket set \"" + b.asText() + "\"");
      }
      b = set;
    }
    return buckets(b, at + ".buckets");
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
}
