package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.NonEngineCatalog;
import dev.infermon.llm.catalog.Router;
import dev.infermon.llm.catalog.RouterSource;
import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.List;

/**
 * PromQL for the router level ({@link Measure.Router}) from the routers' sources in {@code
 * routers.yaml}. A series that names an engine pod (its endpoint label) is relabelled to that pod,
 * by name ({@code pod}) or through the engine target's {@code instance} (a URL's host:port), and
 * joined to the inference pods in scope, which carry {@code namespace}, {@code model_name} and
 * {@code role} and apply the filters; a router-wide series keeps the router target's labels, with
 * its model label read as {@code model_name}. A router's generations are joined with {@code or}
 * after the endpoint is named, so llm-d-router's dual emission counts once. Per engine pod, what
 * several router replicas report adds up (each routes its own requests), except the queue, which
 * every replica reads from the same engine (max). With several routers scraped, a router-wide
 * series also carries {@code router} (the router's backend name): two routers in front of one
 * model's pods (llm-d's EPP before its vLLM pods, SGLang's model gateway before its SGLang pods)
 * each give their own latency, whose buckets differ and must not be merged. Stateless; thread-safe.
 */
final class RouterQueries {
  private final NonEngineCatalog routers;
  private final Selectors selectors;

  RouterQueries(NonEngineCatalog routers, Selectors selectors) {
    this.routers = routers;
    this.selectors = selectors;
  }

  /** The routers whose signature families are present. */
  List<Router> present(Presence presence) {
    List<Router> out = new ArrayList<>();
    for (Router r : routers.routers()) {
      if (r.signature().stream().anyMatch(presence::hasSample)) {
        out.add(r);
      }
    }
    return out;
  }

  /** The measure's PromQL grouped by {@code g}, or null when no router present measures it. */
  String compile(Measure.Router m, List<String> g, PromqlCompiler.Options o) {
    List<String> perRouter = new ArrayList<>();
    List<Router> present = present(o.presence());
    for (Router r : present) {
      List<String> parts = new ArrayList<>();
      for (RouterSource src : r.sources(m.signal())) {
        String part = part(r, src, m, g, o, present.size() > 1);
        if (part != null) {
          parts.add(part);
        }
      }
      if (!parts.isEmpty()) {
        perRouter.add(String.join(" or ", parts));
      }
    }
    if (perRouter.isEmpty()) {
      return null;
    }
    String all = String.join(" or ", perRouter);
    if (m.signal().kind() == dev.infermon.llm.signals.Signal.Kind.HISTOGRAM) {
      double phi = m.fixed() != null ? m.fixed() : o.quantile();
      return "histogram_quantile(" + PromqlCompiler.num(phi) + ", " + all + ")";
    }
    return all;
  }

  private String part(
      Router r,
      RouterSource src,
      Measure.Router m,
      List<String> g,
      PromqlCompiler.Options o,
      boolean several) {
    boolean histogram = src.type() == MetricType.HISTOGRAM;
    String sample = src.family() + (histogram ? "_bucket" : "");
    // an inventory names a histogram an engine catalog also knows by its family (NVIDIA Dynamo's
    // frontend's, engine dynamo's in dynamo.yaml), a router's own by its samples
    if (!o.presence().hasSample(sample) && !(histogram && o.presence().hasSample(src.family()))) {
      return null;
    }
    List<String> matchers = new ArrayList<>();
    src.match().forEach((k, v) -> matchers.add(k + "=" + Filters.quote(v)));
    if (src.endpoint().named()) {
      matchers.add(src.endpoint().label() + "!=\"\"");
    } else if (src.noModel()) {
      if (o.filters().values().containsKey("model_name")) {
        return null; // one series of every model's requests: no model's
      }
    } else {
      modelFilter(r, o, matchers);
    }
    String sel = sample + (matchers.isEmpty() ? "" : "{" + String.join(", ", matchers) + "}");
    String value = src.type() == MetricType.GAUGE ? sel : "rate(" + sel + "[" + o.window() + "])";
    if (!src.by().isEmpty()) {
      value =
          "label_replace("
              + value
              + ", \"decision\", \"$1\", "
              + Filters.quote(src.by())
              + ", \"(.*)\")";
    }
    String op = m.signal() == dev.infermon.llm.signals.RouterSignal.QUEUE ? "max" : "sum";
    List<String> extra = new ArrayList<>();
    if (histogram) {
      extra.add("le");
    }
    if (!src.by().isEmpty()) {
      extra.add("decision");
    }
    if (!src.endpoint().named()) {
      String named = src.noModel() ? value : modelNamed(value, r);
      if (several) {
        named =
            "label_replace("
                + named
                + ", \"router\", "
                + Filters.quote(r.backend())
                + ", \"\", \"\")";
        extra.add("router");
      }
      List<String> labels = Selectors.union(g, extra);
      String grouped = op + " " + Selectors.by(labels) + " (" + named + ")";
      if (src.pairs() && (!o.filters().values().isEmpty() || !o.panelMatch().isEmpty())) {
        // about the requests sent to prefill/decode pairs (the gateway's smg_pd_ttft_seconds, per
        // model): in a narrower view, only while the router names a pair's pod in scope, so the
        // regular pods of the pair's model do not show the pair's TTFT as theirs
        String fronted = fronted(r, pairsOnly(o));
        if (fronted == null) {
          return null;
        }
        grouped = "(" + grouped + " and on () " + fronted + ")";
      } else if (o.filters().values().containsKey("backend") || !o.panelMatch().isEmpty()) {
        // a router-wide series says nothing of a backend or a role: only a router whose per-pod
        // series name pods in scope (the backend filter's, a panel's matchers': the prefill/decode
        // pairs by role) is in front of them. A router with no per-pod family on its page (NVIDIA
        // Dynamo's frontend, whose series are per model only) fronts them while it has a series
        // of a model they serve, as RouterScope takes it: a panel not grouped by model has no
        // model join below, and would show a frontend of other models' pods as theirs
        String fronted = fronted(r, o);
        if (fronted == null && !src.noModel()) {
          fronted = frontedByModel(r, o);
          if (fronted == null) {
            return null;
          }
        }
        if (fronted != null) {
          // parenthesised: "*" binds tighter than "and", and the model join below must not apply
          // to the fronting series, which carries no model
          grouped = "(" + grouped + " and on () " + fronted + ")";
        }
      }
      if (!g.contains("model_name") || src.noModel()) {
        // a series of no model (sgl-router's duration) is shown as the router's, under no model
        return grouped;
      }
      // only the models the engines in scope serve (the filters and the panel's matchers)
      String models = selectors.podMap(g, o, List.of("model_name"));
      return models == null ? null : grouped + " * on (model_name) group_left () " + models;
    }
    return perEndpoint(src, value, op, g, extra, o);
  }

  /** The pods of prefill/decode pairs among those {@code o} keeps: the ones with a P/D role. */
  static PromqlCompiler.Options pairsOnly(PromqlCompiler.Options o) {
    java.util.Map<String, String> match = new java.util.TreeMap<>(o.panelMatch());
    match.putIfAbsent("role", PAIR_ROLES);
    return new PromqlCompiler.Options(
        o.filters(), match, o.quantile(), o.window(), o.presence(), o.step());
  }

  /** The {@code role} of a prefill/decode pair's pods. */
  static final String PAIR_ROLES = "prefill|decode";

  /**
   * One series while router {@code r} names pods in scope in any per-pod family it exposes (the
   * requests it routes, the queues it reads), else null: whether it fronts them.
   */
  String fronted(Router r, PromqlCompiler.Options o) {
    List<String> parts = new ArrayList<>();
    for (dev.infermon.llm.signals.RouterSignal s : dev.infermon.llm.signals.RouterSignal.values()) {
      for (RouterSource src : r.sources(s)) {
        if (!src.endpoint().named()
            || src.type() == MetricType.HISTOGRAM
            || !o.presence().hasSample(src.family())) {
          continue;
        }
        String sel = src.family() + "{" + src.endpoint().label() + "!=\"\"}";
        String pods = perEndpoint(src, sel, "max", List.of(), List.of(), o);
        if (pods != null) {
          parts.add(pods);
        }
      }
    }
    return parts.isEmpty() ? null : "(" + String.join(" or ", parts) + ")";
  }

  /**
   * One series while router {@code r} has a series, in a model-labelled family it exposes that
   * names no engine pod, of a model the pods in scope serve, else null: whether a router whose
   * families are per model only (NVIDIA Dynamo's frontend) fronts them.
   */
  String frontedByModel(Router r, PromqlCompiler.Options o) {
    String models = selectors.podMap(List.of("model_name"), o, List.of("model_name"));
    if (models == null) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    for (dev.infermon.llm.signals.RouterSignal s : dev.infermon.llm.signals.RouterSignal.values()) {
      for (RouterSource src : r.sources(s)) {
        if (src.endpoint().named()
            || src.noModel()
            || src.type() == MetricType.HISTOGRAM
            || !o.presence().hasSample(src.family())) {
          continue;
        }
        String sel = src.family() + "{" + r.modelLabel() + "!=\"\"}";
        parts.add(
            "group (" + modelNamed(sel, r) + " * on (model_name) group_left () " + models + ")");
      }
    }
    return parts.isEmpty() ? null : "(" + String.join(" or ", parts) + ")";
  }

  /** A series about an engine pod, named as that pod and joined to the pods in scope. */
  private String perEndpoint(
      RouterSource src,
      String value,
      String op,
      List<String> g,
      List<String> extra,
      PromqlCompiler.Options o) {
    String key = src.endpoint().isInstance() ? "instance" : "pod";
    String regex = src.endpoint().isInstance() ? src.endpoint().regex() : "(.+)";
    String named =
        "label_replace("
            + value
            + ", "
            + Filters.quote(key)
            + ", \"$1\", "
            + Filters.quote(src.endpoint().label())
            + ", "
            + Filters.quote(regex)
            + ")";
    List<String> keep = new ArrayList<>(List.of("namespace", "pod", "model_name", "role"));
    if (key.equals("instance")) {
      keep.add("instance");
    }
    String pods = selectors.podMap(g, o, keep);
    if (pods == null) {
      return null;
    }
    List<String> carried = new ArrayList<>(keep);
    carried.remove(key);
    String endpoint =
        op + " " + Selectors.by(Selectors.union(List.of(key), extra)) + " (" + named + ")";
    return "sum "
        + Selectors.by(Selectors.union(g, extra))
        + " ("
        + endpoint
        + " * on ("
        + key
        + ") group_left ("
        + String.join(", ", carried)
        + ") "
        + pods
        + ")";
  }

  /** The model filter on a router-wide series, read from the router's model label. */
  private static void modelFilter(Router r, PromqlCompiler.Options o, List<String> out) {
    for (String f : o.filters().matchers(java.util.Map.of())) {
      if (f.startsWith("model_name=") || f.startsWith("model_name=~")) {
        out.add(r.modelLabel() + f.substring("model_name".length()));
      }
    }
  }

  /** The router's model label read as {@code model_name}. */
  private static String modelNamed(String p, Router r) {
    if (r.modelLabel().equals("model_name")) {
      return p;
    }
    return "label_replace("
        + p
        + ", \"model_name\", \"$1\", "
        + Filters.quote(r.modelLabel())
        + ", \"(.+)\")";
  }
}
