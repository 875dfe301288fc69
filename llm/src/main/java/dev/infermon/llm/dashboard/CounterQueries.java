package dev.infermon.llm.dashboard;

import static dev.infermon.llm.dashboard.Selectors.by;
import static dev.infermon.llm.dashboard.Selectors.parts;
import static dev.infermon.llm.dashboard.Selectors.perTarget;
import static dev.infermon.llm.dashboard.Selectors.scale;
import static dev.infermon.llm.dashboard.Selectors.union;

import dev.infermon.llm.dashboard.PromqlCompiler.Options;
import dev.infermon.llm.dashboard.Selectors.Resolved;
import dev.infermon.llm.signals.Aggregation;
import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine signals read directly: gauges, counters (rates and per-step gains, a histogram's
 * {@code _sum}/{@code _count}) and histogram buckets, each aggregated per target and then per group
 * (see {@link PromqlCompiler}). Stateless; thread-safe.
 */
final class CounterQueries {
  /** The label telling engines' quantiles of one group apart before their {@code max}. */
  static final String ENGINE_LABEL = "infermon_engine";

  private final Selectors selectors;

  CounterQueries(Selectors selectors) {
    this.selectors = selectors;
  }

  /**
   * {@code perTarget}, joined to the pods in scope for {@code model_name} and {@code role} when the
   * source's family has no {@code model_name} (vLLM's {@code cache_config_info}, its API server's
   * admission counter); null when no pod is in scope.
   */
  private String withModel(String perTarget, Resolved r, List<String> g, Options o) {
    if (!r.source().modelFromPod()) {
      return perTarget;
    }
    String pods = selectors.podMap(g, o);
    return pods == null
        ? null
        : "(" + perTarget + ") * on (namespace, pod) group_left (model_name, role) " + pods;
  }

  String gauge(Signal s, List<String> g, Options o) {
    return gauge(s, g, o, Set.of());
  }

  /** {@link #gauge(Signal, List, Options)} without the engines {@code skipEngines} names. */
  String gauge(Signal s, List<String> g, Options o, Set<String> skipEngines) {
    List<Resolved> rs = new ArrayList<>(selectors.resolve(s, g, o));
    rs.removeIf(r -> skipEngines.contains(r.engine().engine()));
    if (rs.isEmpty()) {
      return null;
    }
    List<String> inner = new ArrayList<>();
    Aggregation outer = rs.get(0).source().aggregation();
    List<String> byLabels = rs.get(0).source().by();
    for (Resolved r : rs) {
      String one =
          withModel(
              r.source().aggregation().op()
                  + " "
                  + by(perTarget(g, r.source()))
                  + " ("
                  + parts(r, "", o, null)
                  + ")",
              r,
              g,
              o);
      if (one != null) {
        inner.add(one);
      }
    }
    if (inner.isEmpty()) {
      return null;
    }
    return scale(
        outer.op() + " " + by(union(g, byLabels)) + " (" + String.join(" or ", inner) + ")",
        rs.get(0).source().scale());
  }

  /**
   * The per-second rate of a counter signal (or a histogram's _sum/_count), summed per group;
   * {@code onlyEngines}, when not null, keeps the engines it names.
   */
  String counter(
      Signal s, String suffix, List<String> g, Options o, String fn, Set<String> onlyEngines) {
    List<Resolved> rs = selectors.resolve(s, g, o);
    List<String> inner = new ArrayList<>();
    List<String> byLabels = List.of();
    String agg = "sum ";
    for (Resolved r : rs) {
      if (onlyEngines != null && !onlyEngines.contains(r.engine().engine())) {
        continue;
      }
      byLabels = r.source().by();
      // a per-GPU counter (vLLM's estimated FLOPs per GPU) averages over engines and pods: a sum
      // would count one GPU's work once per engine
      agg = r.source().aggregation() == Aggregation.AVG ? "avg " : "sum ";
      String one =
          withModel(
              agg + by(perTarget(g, r.source())) + " (" + parts(r, suffix, o, fn) + ")", r, g, o);
      if (one != null) {
        inner.add(one);
      }
    }
    if (inner.isEmpty()) {
      return null;
    }
    return agg + by(union(g, byLabels)) + " (" + String.join(" or ", inner) + ")";
  }

  /**
   * The {@code phi} quantile of a histogram signal per group, from its buckets' 5 m rates. Buckets
   * of different engines are never summed by {@code le}: their bounds differ (vLLM's TTFT has 2.5
   * and 5 s, SGLang's 2 and 4 s), and a sum reads bounds of one engine with the counts of both, up
   * to a quantile in the merged {@code +Inf} bucket that no request had. Where a group spans
   * several engines' pods (a model served by vLLM and SGLang), each engine's quantile is taken and
   * the largest is the group's, the value the alert pack's TTFT rule has.
   */
  String quantile(Signal s, List<String> g, Options o, double phi) {
    List<Resolved> rs = selectors.resolve(s, g, o);
    if (rs.isEmpty()) {
      return null;
    }
    String head = "histogram_quantile(" + PromqlCompiler.num(phi) + ", ";
    Map<String, List<Resolved>> byEngine = byEngine(rs);
    if (g.contains("pod") || byEngine.size() == 1) {
      return head + buckets(rs, g, o, "rate") + ")"; // a pod runs one engine
    }
    List<String> parts = new ArrayList<>();
    byEngine.forEach(
        (engine, one) -> parts.add(engineMarked(head + buckets(one, g, o, "rate") + ")", engine)));
    // each engine's quantile under a label of its own: "or" keeps all of them, max compares them
    return "max " + by(g) + " (" + String.join(" or ", parts) + ")";
  }

  /**
   * A histogram signal's buckets by {@code le} over the whole selection, {@code fn} applied to
   * each, for a heatmap. As for {@link #quantile}, engines' buckets are never summed: where the
   * selection spans several engines, each engine's buckets come under an {@link #ENGINE_LABEL} of
   * their own, and the page draws one heatmap per engine on that engine's bounds.
   */
  String heatmap(Signal s, Options o, String fn) {
    List<Resolved> rs = selectors.resolve(s, List.of(), o);
    if (rs.isEmpty()) {
      return null;
    }
    Map<String, List<Resolved>> byEngine = byEngine(rs);
    if (byEngine.size() == 1) {
      return buckets(rs, List.of(), o, fn);
    }
    List<String> parts = new ArrayList<>();
    byEngine.forEach(
        (engine, one) -> parts.add(engineMarked(buckets(one, List.of(), o, fn), engine)));
    return String.join(" or ", parts);
  }

  private static Map<String, List<Resolved>> byEngine(List<Resolved> rs) {
    Map<String, List<Resolved>> byEngine = new LinkedHashMap<>();
    for (Resolved r : rs) {
      byEngine.computeIfAbsent(r.engine().engine(), k -> new ArrayList<>()).add(r);
    }
    return byEngine;
  }

  private static String engineMarked(String expr, String engine) {
    return "label_replace(" + expr + ", \"" + ENGINE_LABEL + "\", \"" + engine + "\", \"\", \"\")";
  }

  /** Buckets per group and {@code le}, {@code fn} applied to each. */
  private String buckets(List<Resolved> rs, List<String> g, Options o, String fn) {
    List<String> inner = new ArrayList<>();
    for (Resolved r : rs) {
      inner.add(
          "sum "
              + by(union(union(g, PromqlCompiler.TARGET), List.of(), "le"))
              + " ("
              + parts(r, "_bucket", o, fn)
              + ")");
    }
    return "sum " + by(union(g, List.of(), "le")) + " (" + String.join(" or ", inner) + ")";
  }
}
