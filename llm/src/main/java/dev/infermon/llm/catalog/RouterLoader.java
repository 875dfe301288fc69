package dev.infermon.llm.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.infermon.llm.signals.RouterSignal;
import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code routers.yaml}'s {@code routers:} list strictly: every family a router is signed by,
 * shadows or reads must be in the file's {@code families} with the type it is read as, every key
 * known, so the router level never names a family the catalog cannot cite. Stateless.
 */
final class RouterLoader {
  private static final Set<String> ROUTER_KEYS =
      Set.of(
          "component", "backend", "signature", "shadows", "shadow_label", "model_label", "sources");
  private static final Set<String> SOURCE_KEYS =
      Set.of(
          "signal",
          "gauge",
          "counter",
          "histogram",
          "endpoint",
          "match",
          "by",
          "since",
          "pairs",
          "no_model",
          "user_ttft",
          "note");
  private static final Set<String> ENDPOINT_KEYS = Set.of("pod", "instance", "regex");

  private RouterLoader() {}

  static List<Router> load(
      String file, JsonNode list, Map<String, String> titles, Map<String, NonEngineMetric> known) {
    List<Router> out = new ArrayList<>();
    Set<String> backends = new LinkedHashSet<>();
    int i = 0;
    for (JsonNode r : list) {
      String at = "routers[" + i++ + "]";
      NonEngineCatalog.keys(file, r, ROUTER_KEYS, at);
      String component = NonEngineCatalog.required(file, r, "component", at);
      if (!titles.containsKey(component)) {
        throw new CatalogException(file + ": " + at + ": unknown component \"" + component + "\"");
      }
      String backend = NonEngineCatalog.required(file, r, "backend", at);
      if (!backends.add(backend)) {
        throw new CatalogException(file + ": " + at + ": backend \"" + backend + "\" twice");
      }
      List<String> signature = names(file, r.path("signature"), at + ".signature", known, null);
      Set<String> shadows =
          new LinkedHashSet<>(names(file, r.path("shadows"), at + ".shadows", known, null));
      List<RouterSource> sources = new ArrayList<>();
      int j = 0;
      for (JsonNode s : r.path("sources")) {
        sources.add(source(file, s, at + ".sources[" + j++ + "]", known));
      }
      try {
        out.add(
            new Router(
                component,
                titles.get(component),
                backend,
                signature,
                shadows,
                r.path("shadow_label").asText(""),
                NonEngineCatalog.required(file, r, "model_label", at),
                sources));
      } catch (IllegalArgumentException e) {
        throw new CatalogException(file + ": " + at + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  private static RouterSource source(
      String file, JsonNode s, String at, Map<String, NonEngineMetric> known) {
    NonEngineCatalog.keys(file, s, SOURCE_KEYS, at);
    RouterSignal signal;
    try {
      signal = RouterSignal.fromKey(NonEngineCatalog.required(file, s, "signal", at));
    } catch (IllegalArgumentException e) {
      throw new CatalogException(file + ": " + at + ": signal: " + e.getMessage(), e);
    }
    MetricType type = null;
    String family = null;
    for (String kind : new String[] {"gauge", "counter", "histogram"}) {
      if (s.has(kind)) {
        if (family != null) {
          throw new CatalogException(file + ": " + at + ": one of gauge, counter, histogram");
        }
        type = MetricType.parse(kind);
        family = s.path(kind).asText("");
      }
    }
    if (family == null) {
      throw new CatalogException(file + ": " + at + ": gauge, counter or histogram is required");
    }
    names(file, List.of(family), at, known, type);
    Map<String, String> match = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> m = s.path("match").properties().iterator();
    while (m.hasNext()) {
      Map.Entry<String, JsonNode> e = m.next();
      match.put(e.getKey(), e.getValue().asText());
    }
    try {
      return new RouterSource(
          signal,
          family,
          type,
          endpoint(file, s.path("endpoint"), at + ".endpoint"),
          match,
          s.path("by").asText(""),
          s.path("since").asText(""),
          s.path("pairs").asBoolean(false),
          s.path("no_model").asBoolean(false),
          s.path("user_ttft").asBoolean(false),
          s.path("note").asText(""));
    } catch (IllegalArgumentException e) {
      throw new CatalogException(file + ": " + at + ": " + e.getMessage(), e);
    }
  }

  private static RouterSource.Endpoint endpoint(String file, JsonNode e, String at) {
    if (e.isMissingNode()) {
      return RouterSource.Endpoint.NONE;
    }
    NonEngineCatalog.keys(file, e, ENDPOINT_KEYS, at);
    if (e.has("pod") == e.has("instance")) {
      throw new CatalogException(file + ": " + at + ": exactly one of pod, instance");
    }
    if (e.has("pod")) {
      return new RouterSource.Endpoint(NonEngineCatalog.required(file, e, "pod", at), false, "");
    }
    String regex = NonEngineCatalog.required(file, e, "regex", at);
    return new RouterSource.Endpoint(
        NonEngineCatalog.required(file, e, "instance", at), true, regex);
  }

  /** The names of {@code list}, each a listed family (of {@code type} when given). */
  private static List<String> names(
      String file,
      Iterable<?> list,
      String at,
      Map<String, NonEngineMetric> known,
      MetricType type) {
    List<String> out = new ArrayList<>();
    for (Object o : list) {
      String n = o instanceof JsonNode ? ((JsonNode) o).asText() : o.toString();
      NonEngineMetric f = known.get(n);
      if (f == null) {
        throw new CatalogException(
            file + ": " + at + ": " + n + " is not in families (cite it there first)");
      }
      if (type != null && f.type() != type) {
        throw new CatalogException(
            file + ": " + at + ": " + n + " is a " + f.type() + " in families, not a " + type);
      }
      out.add(n);
    }
    return out;
  }
}
