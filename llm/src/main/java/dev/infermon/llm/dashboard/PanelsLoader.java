package dev.infermon.llm.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.infermon.llm.signals.Signal;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads the dashboard layout (panels.yaml: levels, sections, panels) into a {@link DashboardLayout}
 * and validates it strictly: unknown keys, missing fields, duplicate ids, unknown signals, levels,
 * groupings and kinds, a section in no level, a panel whose section does not exist, a query with no
 * or two measures, and panels not listed together in their sections' order. Every problem is a
 * {@link LayoutException} naming the file, the entry and the field, e.g. {@code panels.yaml: panel
 * "model.qps": section: unknown section "modle" (one of model, pod, ...)}. Stateless apart from one
 * load's bookkeeping; not shared between threads.
 */
final class PanelsLoader {
  private static final String RESOURCE = "/dev/infermon/llm/dashboard/panels.yaml";
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Set<String> TOP_KEYS = Set.of("levels", "sections", "panels");
  private static final Set<String> LEVEL_KEYS = Set.of("id", "title");
  private static final Set<String> SECTION_KEYS = Set.of("id", "title", "level", "wide");
  private static final Set<String> PANEL_KEYS =
      Set.of(
          "id",
          "section",
          "title",
          "group",
          "unit",
          "kind",
          "match",
          "queries",
          "description",
          "rank");
  private static final List<String> MEASURES =
      List.of(
          "gauge",
          "rate",
          "mean",
          "quantile",
          "heatmap",
          "gpu",
          "success_rate",
          "decode_per_token",
          "ratio",
          "per_gpu",
          "idle_gpus",
          "lora",
          "of_peak",
          "cost_per_million_tokens",
          "router");

  private final String file;

  private PanelsLoader(String file) {
    this.file = file;
  }

  /** The built-in layout from the class path. */
  static DashboardLayout loadResource() {
    try (InputStream in = PanelsLoader.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new LayoutException("dashboard layout missing from the class path: " + RESOURCE);
      }
      return load("panels.yaml", in);
    } catch (IOException e) {
      throw new LayoutException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses and validates a layout.
   *
   * @param file the name used in error messages
   * @throws LayoutException naming the file, entry and field of the first problem
   */
  static DashboardLayout load(String file, InputStream yaml) {
    JsonNode root;
    try {
      root = YAML.readTree(yaml);
    } catch (IOException e) {
      throw new LayoutException(file + ": not valid YAML: " + e.getMessage(), e);
    }
    return new PanelsLoader(file).read(root);
  }

  private DashboardLayout read(JsonNode root) {
    if (root == null || !root.isObject()) {
      throw fail("", "", "the document must be a mapping");
    }
    keys(root, TOP_KEYS, "");
    List<LevelTab> levels = levels(list(root, "levels"));
    List<Section> sections = sections(list(root, "sections"), levels);
    List<Panel> panels = panels(list(root, "panels"), sections);
    return new DashboardLayout(levels, sections, panels);
  }

  private List<LevelTab> levels(JsonNode list) {
    List<LevelTab> out = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode n = list.get(i);
      String where = "levels[" + i + "]";
      String id = id(n, where);
      where = "level \"" + id + "\"";
      keys(n, LEVEL_KEYS, where);
      if (!ids.add(id)) {
        throw fail(where, "id", "the id is used twice");
      }
      out.add(new LevelTab(id, text(n, "title", where)));
    }
    if (!ids.contains(DashboardLayout.ALL)) {
      throw fail("levels", "", "the level \"all\" (every panel) is missing");
    }
    return out;
  }

  private List<Section> sections(JsonNode list, List<LevelTab> levels) {
    List<String> levelIds = new ArrayList<>();
    for (LevelTab l : levels) {
      levelIds.add(l.id());
    }
    List<Section> out = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    Set<String> titles = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode n = list.get(i);
      String id = id(n, "sections[" + i + "]");
      String where = "section \"" + id + "\"";
      keys(n, SECTION_KEYS, where);
      if (!ids.add(id)) {
        throw fail(where, "id", "the id is used twice");
      }
      String title = text(n, "title", where);
      if (!titles.add(title)) {
        throw fail(where, "title", "the title \"" + title + "\" is another section's");
      }
      String level = text(n, "level", where);
      if (!levelIds.contains(level) || level.equals(DashboardLayout.ALL)) {
        throw fail(
            where,
            "level",
            "unknown level \""
                + level
                + "\" (one of "
                + oneOf(levelIds, DashboardLayout.ALL)
                + ")");
      }
      JsonNode wide = n.path("wide");
      if (!wide.isMissingNode() && !wide.isBoolean()) {
        throw fail(where, "wide", "must be true or false, got " + wide);
      }
      out.add(new Section(id, title, level, wide.asBoolean(false)));
    }
    return out;
  }

  private List<Panel> panels(JsonNode list, List<Section> sections) {
    Map<String, Integer> order = new LinkedHashMap<>();
    for (Section s : sections) {
      order.put(s.id(), order.size());
    }
    List<Panel> out = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    int current = -1;
    for (int i = 0; i < list.size(); i++) {
      JsonNode n = list.get(i);
      String id = id(n, "panels[" + i + "]");
      String where = "panel \"" + id + "\"";
      keys(n, PANEL_KEYS, where);
      if (!ids.add(id)) {
        throw fail(where, "id", "the id is used twice");
      }
      String section = text(n, "section", where);
      Integer at = order.get(section);
      if (at == null) {
        throw fail(
            where,
            "section",
            "unknown section \""
                + section
                + "\" (one of "
                + oneOf(new ArrayList<>(order.keySet()), null)
                + ")");
      }
      if (at < current) {
        throw fail(
            where,
            "section",
            "\""
                + section
                + "\" comes after section \""
                + sections.get(current).id()
                + "\": panels are listed together, in their sections' order");
      }
      current = at;
      out.add(panel(n, id, where, sections.get(at)));
    }
    return out;
  }

  private Panel panel(JsonNode n, String id, String where, Section section) {
    Level group = choice(n, "group", where, Level.class, null);
    Panel.Kind kind = choice(n, "kind", where, Panel.Kind.class, Panel.Kind.TIMESERIES);
    Panel.Rank rank = choice(n, "rank", where, Panel.Rank.class, Panel.Rank.HIGH);
    if (n.has("rank") && group != Level.POD && group != Level.GPU) {
      throw fail(
          where,
          "rank",
          "only a per-pod or per-GPU panel is ranked (group pod or gpu), got group "
              + group.name().toLowerCase(Locale.ROOT));
    }
    Map<String, String> match = new LinkedHashMap<>();
    JsonNode m = n.path("match");
    if (!m.isMissingNode()) {
      if (!m.isObject()) {
        throw fail(where, "match", "must map label names to regexes");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = m.properties().iterator(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isTextual()) {
          throw fail(where, "match." + e.getKey(), "must be a regex string");
        }
        match.put(e.getKey(), e.getValue().asText());
      }
    }
    JsonNode qs = n.path("queries");
    if (!qs.isArray() || qs.isEmpty()) {
      throw fail(where, "queries", "a non-empty list of queries is required");
    }
    List<Query> queries = new ArrayList<>();
    for (int i = 0; i < qs.size(); i++) {
      String field = "queries[" + i + "]";
      JsonNode q = qs.get(i);
      if (!q.isObject()) {
        throw fail(where, field, "must be a mapping of a legend and one measure");
      }
      String legend = text(q, "legend", where + ": " + field);
      queries.add(new Query(legend, measure(q, where, field, true)));
    }
    JsonNode d = n.path("description");
    String description = d.isMissingNode() ? "" : d.asText();
    try {
      return new Panel(
          id,
          section.title(),
          text(n, "title", where),
          group,
          text(n, "unit", where),
          kind,
          match,
          queries,
          description,
          rank);
    } catch (IllegalArgumentException e) {
      throw fail(where, "id", e.getMessage());
    }
  }

  /** The one measure of a mapping: a query's (beside its legend) or a nested one's. */
  private Measure measure(JsonNode n, String where, String field, boolean query) {
    String found = null;
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (query && k.equals("legend")) {
        continue;
      }
      if (!MEASURES.contains(k)) {
        throw fail(
            where, field + "." + k, "unknown key (measures: " + String.join(", ", MEASURES) + ")");
      }
      if (found != null) {
        throw fail(where, field, "two measures, " + found + " and " + k + ": one is allowed");
      }
      found = k;
    }
    if (found == null) {
      throw fail(where, field, "no measure (one of " + String.join(", ", MEASURES) + ")");
    }
    JsonNode v = n.get(found);
    String at = field + "." + found;
    switch (found) {
      case "gauge":
        return new Measure.Level(signal(v, where, at));
      case "rate":
        return new Measure.Rate(signal(v, where, at));
      case "mean":
        return new Measure.Mean(signal(v, where, at));
      case "heatmap":
        return new Measure.Heatmap(signal(v, where, at));
      case "gpu":
        return new Measure.Gpu(signal(v, where, at));
      case "success_rate":
        if (!v.isObject() || !v.isEmpty()) {
          throw fail(where, at, "takes no arguments: write success_rate: {}");
        }
        return new Measure.SuccessRate();
      case "decode_per_token":
        if (!v.isObject() || !v.isEmpty()) {
          throw fail(where, at, "takes no arguments: write decode_per_token: {}");
        }
        return new Measure.DecodePerToken();
      case "idle_gpus":
        if (!v.isObject() || !v.isEmpty()) {
          throw fail(where, at, "takes no arguments: write idle_gpus: {}");
        }
        return new Measure.IdleGpus();
      case "lora":
        return lora(v, where, at);
      case "cost_per_million_tokens":
        if (!v.isObject() || !v.isEmpty()) {
          throw fail(where, at, "takes no arguments: write cost_per_million_tokens: {}");
        }
        return new Measure.CostPerMillionTokens();
      case "router":
        return router(v, where, at);
      case "quantile":
        return quantile(v, where, at);
      case "ratio":
        return ratio(v, where, at);
      case "of_peak":
        return ofPeak(v, where, at);
      default: // per_gpu
        return new Measure.PerGpu(nested(v, where, at));
    }
  }

  /** {@code of_peak: {peak: flops, rates: [flops_per_gpu]}}: per-GPU rates over the GPUs' peak. */
  private Measure ofPeak(JsonNode v, String where, String at) {
    if (!v.isObject()) {
      throw fail(where, at, "must be a mapping, e.g. {peak: flops, rates: [flops_per_gpu]}");
    }
    for (Iterator<String> it = v.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!k.equals("peak") && !k.equals("rates")) {
        throw fail(where, at + "." + k, "unknown key (peak, rates)");
      }
    }
    List<String> peaks = new ArrayList<>();
    Measure.OfPeak.Peak peak = null;
    for (Measure.OfPeak.Peak p : Measure.OfPeak.Peak.values()) {
      peaks.add(p.key());
      if (p.key().equals(v.path("peak").asText()) && v.path("peak").isTextual()) {
        peak = p;
      }
    }
    if (peak == null) {
      throw fail(
          where,
          at + ".peak",
          "must be one of " + String.join(", ", peaks) + ", got " + v.get("peak"));
    }
    JsonNode rates = v.path("rates");
    if (!rates.isArray() || rates.isEmpty()) {
      throw fail(where, at + ".rates", "must be a non-empty list of counter signals");
    }
    List<Signal> signals = new ArrayList<>();
    for (int i = 0; i < rates.size(); i++) {
      signals.add(signal(rates.get(i), where, at + ".rates[" + i + "]"));
    }
    return new Measure.OfPeak(signals, peak);
  }

  private Measure lora(JsonNode v, String where, String at) {
    List<String> views = new ArrayList<>();
    for (Measure.Lora.View view : Measure.Lora.View.values()) {
      if (view.key().equals(v.asText()) && v.isTextual()) {
        return new Measure.Lora(view);
      }
      views.add(view.key());
    }
    throw fail(where, at, "unknown LoRA view " + v + " (one of " + String.join(", ", views) + ")");
  }

  /** {@code router: routed}, or {@code router: {signal: ttft, fixed: 0.95}} for a quantile. */
  private Measure router(JsonNode v, String where, String at) {
    JsonNode signal = v;
    Double fixed = null;
    if (v.isObject()) {
      keys(v, Set.of("signal", "fixed"), where + ": " + at);
      signal = v.path("signal");
      JsonNode f = v.path("fixed");
      if (!f.isNumber() || !(f.asDouble() > 0 && f.asDouble() < 1)) {
        throw fail(where, at + ".fixed", "must be a number between 0 and 1, got " + f);
      }
      fixed = f.asDouble();
    }
    try {
      return new Measure.Router(
          dev.infermon.llm.signals.RouterSignal.fromKey(signal.asText()), fixed);
    } catch (IllegalArgumentException e) {
      throw fail(where, at, e.getMessage());
    }
  }

  private Measure quantile(JsonNode v, String where, String at) {
    if (v.isTextual()) {
      return new Measure.Quantile(signal(v, where, at), null);
    }
    keys(v, Set.of("signal", "fixed"), where + ": " + at);
    JsonNode f = v.path("fixed");
    if (!f.isNumber() || !(f.asDouble() > 0 && f.asDouble() < 1)) {
      throw fail(where, at + ".fixed", "must be a number between 0 and 1, got " + f);
    }
    return new Measure.Quantile(signal(v.path("signal"), where, at + ".signal"), f.asDouble());
  }

  private Measure ratio(JsonNode v, String where, String at) {
    keys(v, Set.of("numerator", "denominator", "plus"), where + ": " + at);
    JsonNode plus = v.path("plus");
    if (!plus.isMissingNode() && !plus.isNumber()) {
      throw fail(where, at + ".plus", "must be a number, got " + plus);
    }
    return new Measure.Ratio(
        nested(v.path("numerator"), where, at + ".numerator"),
        nested(v.path("denominator"), where, at + ".denominator"),
        plus.asDouble(0));
  }

  private Measure nested(JsonNode v, String where, String at) {
    if (!v.isObject()) {
      throw fail(where, at, "must be a measure, e.g. {rate: prompt_tokens}");
    }
    return measure(v, where, at, false);
  }

  private Signal signal(JsonNode v, String where, String at) {
    if (!v.isTextual()) {
      throw fail(where, at, "must name a signal");
    }
    try {
      return Signal.fromKey(v.asText());
    } catch (IllegalArgumentException e) {
      throw fail(where, at, e.getMessage());
    }
  }

  private <E extends Enum<E>> E choice(
      JsonNode n, String field, String where, Class<E> type, E dflt) {
    JsonNode v = n.path(field);
    if (v.isMissingNode() && dflt != null) {
      return dflt;
    }
    String raw = text(n, field, where);
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      String name = e.name().toLowerCase(Locale.ROOT);
      if (name.equals(raw)) {
        return e;
      }
      names.add(name);
    }
    throw fail(where, field, "unknown value \"" + raw + "\" (one of " + oneOf(names, null) + ")");
  }

  private JsonNode list(JsonNode root, String key) {
    JsonNode l = root.path(key);
    if (!l.isArray() || l.isEmpty()) {
      throw fail(key, "", "a non-empty list is required");
    }
    return l;
  }

  private String id(JsonNode n, String where) {
    if (!n.isObject()) {
      throw fail(where, "", "must be a mapping");
    }
    String id = text(n, "id", where);
    if (!id.matches("[a-z0-9_.]+")) {
      throw fail(where, "id", "\"" + id + "\" is not lower case letters, digits, _ and .");
    }
    return id;
  }

  private String text(JsonNode n, String field, String where) {
    JsonNode v = n.path(field);
    if (!v.isTextual()) {
      throw fail(where, field, v.isMissingNode() ? "is required" : "must be a string, got " + v);
    }
    return v.asText();
  }

  private void keys(JsonNode n, Set<String> allowed, String where) {
    if (!n.isObject()) {
      throw fail(where, "", "must be a mapping");
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw fail(where, k, "unknown key (allowed: " + oneOf(allowed, null) + ")");
      }
    }
  }

  private static String oneOf(Iterable<String> values, String except) {
    List<String> out = new ArrayList<>();
    for (String v : values) {
      if (!v.equals(except)) {
        out.add(v);
      }
    }
    if (!(values instanceof List)) {
      out.sort(null);
    }
    return String.join(", ", out);
  }

  private LayoutException fail(String where, String field, String message) {
    StringBuilder b = new StringBuilder(file).append(": ");
    if (!where.isEmpty()) {
      b.append(where).append(": ");
    }
    if (!field.isEmpty()) {
      b.append(field).append(": ");
    }
    return new LayoutException(b.append(message).toString());
  }
}
