package dev.infermon.llm.export;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.Router;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.dashboard.Query;
import dev.infermon.llm.dashboard.Section;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The whole dashboard as Grafana dashboard JSON: a Prometheus data-source variable, template
 * variables for the filters (namespace, workload, model, backend, role), the quantile and the
 * GPU-hour price ({@link CostTarget}), one row per section, every panel compiled for the chosen
 * spellings (all their releases' names, but series only a removed release had and nothing
 * replaces), the router level once per router ({@link RouterTargets}). A panel none of whose
 * queries can be written is left out and named in the dashboard's description. Stateless.
 */
public final class GrafanaDashboard {
  /** The dashboard's uid. */
  public static final String UID = "infermon-llm";

  // compiled with this quantile, then replaced by the variable: the compiler takes numbers only
  private static final double PLACEHOLDER_QUANTILE = 0.123456789;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private GrafanaDashboard() {}

  /** The dashboard JSON for {@code engines}, in every spelling the catalog knows for them. */
  public static String json(Catalog catalog, Set<String> engines) {
    List<Spelling> all = new ArrayList<>();
    for (String e : engines) {
      all.addAll(catalog.engine(e).spellings());
    }
    return jsonFor(catalog, all, LlmConfig.Cost.NONE);
  }

  /**
   * The dashboard JSON reading the families of {@code spellings} only, the router level for every
   * router the catalog knows, and the cost at {@code cost}'s prices ({@link CostTarget}).
   */
  public static String jsonFor(Catalog catalog, List<Spelling> spellings, LlmConfig.Cost cost) {
    return jsonFor(
        catalog,
        spellings,
        new Scope(
            current(new LinkedHashSet<>(spellings)), false, RouterTargets.known(catalog), cost));
  }

  /**
   * What an export is written for.
   *
   * @param presence the families it reads: every current one ({@link #current}), or a known fleet's
   *     ({@link TargetPresence})
   * @param fleet whether they are a known fleet's (the dashboard's description then says the panels
   *     left out read nothing the targets expose; else, nothing the engines exported have)
   * @param routers the routers the router level is written for, one query each
   * @param cost the prices the cost panel's variable defaults to
   */
  record Scope(Presence presence, boolean fleet, RouterTargets routers, LlmConfig.Cost cost) {}

  /** The dashboard JSON reading the families of {@code spellings} that {@code scope} has. */
  static String jsonFor(Catalog catalog, List<Spelling> spellings, Scope scope) {
    Presence presence = scope.presence();
    boolean fleet = scope.fleet();
    Set<Spelling> chosen = new LinkedHashSet<>(spellings);
    Presence spelt = Presence.spellings(chosen);
    Presence reads = spelt.and(presence);
    PromqlCompiler compiler = new PromqlCompiler(catalog);
    ObjectNode root = JSON.createObjectNode();
    root.put("uid", UID);
    root.put("title", "LLM inference (infermon)");
    root.put("schemaVersion", 39);
    root.put("version", 1);
    root.put("editable", true);
    root.putArray("tags").add("llm").add("vllm").add("sglang").add("infermon");
    root.putObject("time").put("from", "now-1h").put("to", "now");
    root.put("refresh", "30s");
    ArrayNode variables = root.putObject("templating").putArray("list");
    templating(variables, ModelVariable.query(catalog, chosen));
    CostTarget.variable(variables, scope.cost());
    // a panel none of whose queries can be written for the scope is left out, never exported
    // empty, and the dashboard's description names it
    List<String> leftOut = panels(root.putArray("panels"), catalog, compiler, reads, scope);
    if (!leftOut.isEmpty()) {
      root.put(
          "description",
          "Left out, as no query of theirs reads a family "
              + (fleet ? "the targets expose" : "of the engines exported")
              + ": "
              + String.join("; ", leftOut)
              + ".");
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  /**
   * One row per section and its panels, laid out three to a row, into {@code panels}; returns the
   * panels left out (section / title), which no query could be written for.
   */
  private static List<String> panels(
      ArrayNode panels, Catalog catalog, PromqlCompiler compiler, Presence reads, Scope scope) {
    List<String> leftOut = new ArrayList<>();
    int id = 1;
    int y = 0;
    for (Section s : Dashboards.layout().sections()) {
      String section = s.title();
      ObjectNode row = panels.addObject();
      row.put("id", id++);
      row.put("type", "row");
      row.put("title", section);
      row.put("collapsed", false);
      grid(row, 0, y++, 24, 1);
      int x = 0;
      int before = panels.size();
      for (Panel p : Dashboards.standard()) {
        if (!p.section().equals(section)) {
          continue;
        }
        Map<String, ArrayNode> views = views(catalog, compiler, p, reads, scope);
        if (views.isEmpty()) {
          leftOut.add(section + " / " + p.title());
          continue;
        }
        for (Map.Entry<String, ArrayNode> v : views.entrySet()) {
          ObjectNode n = panels.addObject();
          n.put("id", id++);
          n.put("title", v.getKey());
          n.put("description", p.description());
          n.put("type", p.kind() == Panel.Kind.HEATMAP ? "heatmap" : "timeseries");
          datasource(n);
          n.putObject("fieldConfig").putObject("defaults").put("unit", p.unit());
          grid(n, x, y, 8, 8);
          x += 8;
          if (x >= 24) {
            x = 0;
            y += 8;
          }
          n.set("targets", v.getValue());
        }
      }
      if (panels.size() == before) {
        // a row of nothing the scope has (no prefill/decode pods, no GPU exporter): left out
        panels.remove(before - 1);
        id--;
        y--;
      }
      if (x > 0) {
        y += 8;
      }
    }
    return leftOut;
  }

  /**
   * The panel's targets by the title of the Grafana panel that shows them: one panel, or for a
   * heatmap whose signal more than one engine of the scope has, one panel per engine ("Prompt
   * length (sglang)"), as the engines' bucket bounds differ and Grafana's heatmap merges its series
   * by {@code le} (the infermon UI draws one heatmap per engine for the same reason). Empty when no
   * query can be written.
   */
  private static Map<String, ArrayNode> views(
      Catalog catalog, PromqlCompiler compiler, Panel p, Presence reads, Scope scope) {
    Map<String, ArrayNode> views = new LinkedHashMap<>();
    if (p.kind() == Panel.Kind.HEATMAP) {
      for (EngineCatalog e : catalog.engines()) {
        ArrayNode targets = targets(compiler, p, reads.onlyEngine(e.engine()), scope);
        if (!targets.isEmpty()) {
          views.put(p.title() + " (" + e.engine() + ")", targets);
        }
      }
      if (views.size() > 1) {
        return views;
      }
      views.clear();
    }
    ArrayNode targets = targets(compiler, p, reads, scope);
    if (!targets.isEmpty()) {
      views.put(p.title(), targets);
    }
    return views;
  }

  /**
   * The panel's queries compiled for the families {@code reads} has, one target each; a router
   * measure once per router of the scope, each named in its legend ({@link RouterTargets}).
   */
  private static ArrayNode targets(PromqlCompiler compiler, Panel p, Presence reads, Scope scope) {
    ArrayNode targets = JSON.createArrayNode();
    for (Query q : p.queries()) {
      if (q.measure() instanceof Measure.Router) {
        for (Router r : scope.routers().routers()) {
          Presence withRouter = scope.routers().presence(reads, r);
          compiler
              .compile(q.measure(), p.level(), options(p, withRouter))
              .ifPresent(e -> target(targets, p, e, RouterTargets.legend(q.legend(), r)));
        }
        continue;
      }
      Optional<String> expr =
          q.measure() instanceof Measure.CostPerMillionTokens
              ? CostTarget.expr(compiler, p.level().groupBy(), options(p, reads), scope.cost())
              : compiler.compile(q.measure(), p.level(), options(p, reads));
      expr.ifPresent(e -> target(targets, p, e, q.legend()));
    }
    return targets;
  }

  private static PromqlCompiler.Options options(Panel p, Presence reads) {
    return new PromqlCompiler.Options(
        Filters.grafanaVariables(),
        p.match(),
        PLACEHOLDER_QUANTILE,
        "$__rate_interval",
        reads,
        // Grafana's step: a heatmap column counts the observations of one interval
        "$__interval");
  }

  /** One target more, its refId the next letter. */
  private static void target(ArrayNode targets, Panel p, String expr, String legend) {
    ObjectNode t = targets.addObject();
    t.put("refId", String.valueOf((char) ('A' + targets.size() - 1)));
    datasource(t);
    t.put("expr", expr.replace(Double.toString(PLACEHOLDER_QUANTILE), "$quantile"));
    t.put("legendFormat", legend.replace(" q", " p$quantile"));
    if (p.kind() == Panel.Kind.HEATMAP) {
      t.put("format", "heatmap");
    }
  }

  /**
   * Every family of {@code spellings} but those that no current release exposes and nothing
   * replaces (vLLM V0's swapped requests): against any current fleet such a series is empty, and a
   * release that had it has no other source of the signal to keep it for. Renamed families stay:
   * their queries join old and new names with {@code or}.
   */
  static Presence current(Set<Spelling> spellings) {
    Presence all = Presence.spellings(spellings);
    return all.and((e, v, m) -> m.exposedIn(e.newest()) || replaced(e, m));
  }

  /** Whether another family of the engine is a source of a signal {@code m} is a source of. */
  private static boolean replaced(EngineCatalog e, MetricEntry m) {
    for (List<SignalSource> sources : e.signals().values()) {
      boolean has = sources.stream().anyMatch(s -> s.metrics().contains(m.name()));
      boolean other =
          sources.stream().anyMatch(s -> s.metrics().stream().anyMatch(n -> !n.equals(m.name())));
      if (has && other) {
        return true;
      }
    }
    return false;
  }

  private static void templating(ArrayNode list, String modelQuery) {
    ObjectNode ds = list.addObject();
    ds.put("name", "datasource");
    ds.put("label", "Data source");
    ds.put("type", "datasource");
    ds.put("query", "prometheus");
    for (Map.Entry<String, String> f : Filters.LABELS.entrySet()) {
      if (f.getKey().equals(Filters.ADAPTER)) {
        continue; // no stored series carries lora_adapter: label_values would list nothing
      }
      ObjectNode v = list.addObject();
      v.put("name", f.getValue());
      v.put("label", f.getValue());
      v.put("type", "query");
      datasource(v);
      if (f.getKey().equals("model_name")) {
        v.put("query", modelQuery);
        v.put("regex", ModelVariable.REGEX);
      } else {
        v.put("query", "label_values(" + f.getKey() + ")");
      }
      v.put("refresh", 2);
      v.put("includeAll", true);
      v.put("allValue", ".*");
      v.put("multi", false);
      v.putObject("current").put("text", "All").put("value", "$__all");
      v.put("sort", 1);
    }
    ObjectNode q = list.addObject();
    q.put("name", "quantile");
    q.put("label", "Quantile");
    q.put("type", "custom");
    q.put("query", "0.5,0.9,0.95,0.99");
    q.putObject("current").put("text", "0.95").put("value", "0.95");
    ArrayNode options = q.putArray("options");
    for (String o : List.of("0.5", "0.9", "0.95", "0.99")) {
      options.addObject().put("text", o).put("value", o).put("selected", o.equals("0.95"));
    }
  }

  static void datasource(ObjectNode n) {
    n.putObject("datasource").put("type", "prometheus").put("uid", "${datasource}");
  }

  private static void grid(ObjectNode n, int x, int y, int w, int h) {
    n.putObject("gridPos").put("x", x).put("y", y).put("w", w).put("h", h);
  }
}
