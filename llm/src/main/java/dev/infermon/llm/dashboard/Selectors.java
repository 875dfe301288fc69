package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.dashboard.PromqlCompiler.Options;
import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The first step of every {@link PromqlCompiler} query: which sources of a signal are present per
 * engine, and how one source's families are spelled as selectors (filters, model label, value
 * labels, per-step differences, TP-rank deduplication). The measure families ({@link
 * CounterQueries}, {@link GpuQueries}, {@link DerivedQueries}) build on these; the static helpers
 * are the PromQL fragments they share. Stateless; thread-safe.
 */
final class Selectors {
  /** The function {@link #parts} applies for a heatmap: the increase over one step, exactly. */
  static final String PER_STEP = "per-step";

  /**
   * A selected source's families, with the engine they belong to and, per family, the matchers that
   * keep its selector to that engine's series ({@link Catalog#matchersTellingApart}).
   */
  record Resolved(
      EngineCatalog engine,
      SignalSource source,
      List<String> families,
      java.util.Map<String, List<String>> apart) {
    Resolved {
      families = List.copyOf(families);
      apart = java.util.Map.copyOf(apart);
    }

    /** The matchers telling {@code family}'s spelling from another engine's same name. */
    List<String> apart(String family) {
      return apart.getOrDefault(family, List.of());
    }
  }

  private final Catalog catalog;

  Selectors(Catalog catalog) {
    this.catalog = catalog;
  }

  Catalog catalog() {
    return catalog;
  }

  /**
   * Sources of {@code s} whose families are present, per engine, preferred first; an engine without
   * prefill/decode roles has none in a view by or of role.
   */
  List<Resolved> resolve(Signal s, List<String> g, Options o) {
    List<Resolved> out = new ArrayList<>();
    for (EngineCatalog e : catalog.engines()) {
      if (!e.disaggregated() && (g.contains("role") || o.panelMatch().containsKey("role"))) {
        continue; // its pods have no role: a role view has no branch of it
      }
      for (SignalSource src : e.sources(s)) {
        List<String> families = new ArrayList<>();
        java.util.Map<String, List<String>> apart = new java.util.HashMap<>();
        for (String name : src.metrics()) {
          for (MetricEntry entry : e.entries(name)) {
            for (NameVariant v : e.variants()) {
              String f = entry.familyName(v);
              // a family one product owns (NIM's request_failure_total) has no vllm: spelling
              if (!e.ownedElsewhere(v, name)
                  && o.presence().has(e, v, entry)
                  && !families.contains(f)) {
                families.add(f);
                apart.put(f, catalog.matchersTellingApart(e, v, f));
              }
            }
          }
        }
        // a product needs every factor: one family present per metric
        if (!families.isEmpty() && (!src.product() || families.size() == src.metrics().size())) {
          out.add(new Resolved(e, src, families, apart));
        }
      }
    }
    return out;
  }

  static String selector(Resolved r, String family, String suffix, Options o) {
    return selector(r, family, suffix, o, null);
  }

  /**
   * A family's selector; for an engine with a {@code model_placeholder}, {@code placeholder} picks
   * its series that carry it ({@code true}: the model filter then reads {@code model_from_label})
   * or the others ({@code false}), null both.
   */
  private static String selector(
      Resolved r, String family, String suffix, Options o, Boolean placeholder) {
    EngineCatalog e = r.engine();
    SignalSource src = r.source();
    // a family without model_name is scoped to a model through the pods it joins (podMap)
    Filters filters = src.modelFromPod() ? o.filters().without("model_name") : o.filters();
    List<String> matchers = new ArrayList<>();
    boolean fromLabel =
        !e.modelFromLabel().isEmpty()
            && (e.modelPlaceholder().isEmpty() || Boolean.TRUE.equals(placeholder));
    for (String m : filters.matchers(o.panelMatch())) {
      // the model filter reads the label that names the model of an engine without model_name
      boolean model = m.startsWith("model_name=") && fromLabel;
      matchers.add(model ? e.modelFromLabel() + m.substring("model_name".length()) : m);
    }
    if (placeholder != null && e.modelPlaceholder().isPresent()) {
      matchers.add(
          "model_name" + (placeholder ? "=" : "!=") + Filters.quote(e.modelPlaceholder().get()));
    }
    src.match().forEach((k, v) -> matchers.add(k + (v.isEmpty() ? "=" : "=~") + Filters.quote(v)));
    // TensorRT-LLM 1.0's engine_type!="", NIM's engine_type="": one name, two engines' series
    matchers.addAll(r.apart(family));
    // a router's per-backend copy of this gauge (production-stack's vllm: names) is not an engine's
    String shadow = o.presence().shadowLabel(family + src.series() + suffix);
    if (!shadow.isEmpty()) {
      matchers.add(shadow + "=\"\"");
    }
    return family
        + src.series()
        + suffix
        + (matchers.isEmpty() ? "" : "{" + String.join(", ", matchers) + "}");
  }

  /**
   * The product of the numbers {@code labels} of {@code sel}'s series hold, one series per series.
   * PromQL has no function from a label to a value; {@code histogram_quantile(1, ...)} over a
   * histogram of one observation whose only finite bucket bound is the label's number answers
   * exactly that bound (0 + bound x 1/1), and keeps the series' other labels, so the product
   * matches one to one. Pure PromQL: it works on every backend and over all history. A series whose
   * label is absent or not a number ({@code "None"}) has only the {@code +Inf} bucket, whose
   * quantile is NaN, which {@code >= 0} drops; no matcher names the label, which a release without
   * it does not have, and no series reaches the quantile without {@code le} (a warning).
   */
  private static String labelValues(String sel, List<String> labels) {
    String inf = "label_replace(" + sel + ", \"le\", \"+Inf\", \"__name__\", \".*\")";
    List<String> factors = new ArrayList<>();
    for (String l : labels) {
      factors.add(
          "histogram_quantile(1, label_replace("
              + inf
              + ", \"le\", \"$1\", "
              + Filters.quote(l)
              + ", \"([0-9]+)\") or "
              + inf
              + ")");
    }
    return String.join(" * ", factors) + " >= 0";
  }

  /**
   * One source's raw series (rate/increase applied when {@code fn} is set, or the count per step
   * for {@link #PER_STEP}), deduplicated.
   */
  static String parts(Resolved r, String suffix, Options o, String fn) {
    if (r.source().product()) {
      return product(r, suffix, o, fn);
    }
    List<String> parts = new ArrayList<>();
    for (String f : r.families()) {
      if (r.engine().modelPlaceholder().isEmpty()) {
        parts.add(modelNamed(part(r, f, suffix, o, fn, null), r.engine()));
      } else {
        // the series that name their model keep it; those with the placeholder take the label's
        parts.add(part(r, f, suffix, o, fn, false));
        parts.add(modelNamed(part(r, f, suffix, o, fn, true), r.engine()));
      }
    }
    return String.join(" or ", parts);
  }

  /**
   * A product source's series: its families multiplied, each deduplicated first so that the factors
   * carry the same labels and match one to one ({@code *} ignores only the name).
   */
  private static String product(Resolved r, String suffix, Options o, String fn) {
    if (r.engine().modelPlaceholder().isEmpty()) {
      return modelNamed(factors(r, suffix, o, fn, null), r.engine());
    }
    return factors(r, suffix, o, fn, false)
        + " or "
        + modelNamed(factors(r, suffix, o, fn, true), r.engine());
  }

  private static String factors(
      Resolved r, String suffix, Options o, String fn, Boolean placeholder) {
    List<String> factors = new ArrayList<>();
    for (String f : r.families()) {
      factors.add("(" + part(r, f, suffix, o, fn, placeholder) + ")");
    }
    return "(" + String.join(" * ", factors) + ")";
  }

  /** One family's raw series of {@link #parts}, for one side of a placeholder split. */
  private static String part(
      Resolved r, String f, String suffix, Options o, String fn, Boolean placeholder) {
    boolean several = r.source().metrics().size() > 1 && !r.source().product();
    String p = selector(r, f, suffix, o, placeholder);
    if (!r.source().valueLabels().isEmpty()) {
      p = labelValues(p, r.source().valueLabels());
    }
    if (PER_STEP.equals(fn)) {
      // the offset goes on the selector: PromQL refuses it after label_replace (named)
      String before = p + " offset " + o.step();
      p = several ? difference(named(p), named(before)) : perStep(p, o.step());
    } else {
      if (fn != null) {
        p = fn + "(" + p + "[" + o.window() + "])";
      }
      if (several) {
        p = named(p);
      }
    }
    if (r.source().dedupe() && !r.engine().dedupeLabels().isEmpty()) {
      p = "max without (" + String.join(", ", r.engine().dedupeLabels()) + ") (" + p + ")";
    }
    return p;
  }

  /**
   * An engine's series with {@code model_name} copied from the label its catalog names ({@code
   * model_from_label}), for an engine whose page names no model: grouping by model then puts each
   * of its pods under its own model rather than all of them into one group.
   */
  private static String modelNamed(String p, EngineCatalog e) {
    if (e.modelFromLabel().isEmpty()) {
      return p;
    }
    return "label_replace("
        + p
        + ", \"model_name\", \"$1\", "
        + Filters.quote(e.modelFromLabel())
        + ", \"(.+)\")";
  }

  /** Keeps each family apart: aggregations drop {@code __name__}. */
  private static String named(String p) {
    return "label_replace(" + p + ", \"metric\", \"$1\", \"__name__\", \"(.+)\")";
  }

  /** The inference pods in scope, one series per pod: {@code namespace, pod, model_name, role}. */
  String podMap(List<String> g, Options o) {
    return podMap(g, o, List.of("namespace", "pod", "model_name", "role"));
  }

  /** The inference pods in scope, one series per pod with the labels {@code keep}. */
  String podMap(List<String> g, Options o, List<String> keep) {
    List<String> parts = new ArrayList<>();
    for (Resolved r : resolve(Signal.REQUESTS_RUNNING, g, o)) {
      for (String f : r.families()) {
        if (r.engine().modelPlaceholder().isEmpty()) {
          parts.add(modelNamed(selector(r, f, "", o), r.engine()));
        } else {
          parts.add(selector(r, f, "", o, false));
          parts.add(modelNamed(selector(r, f, "", o, true), r.engine()));
        }
      }
    }
    if (parts.isEmpty()) {
      return null;
    }
    return "group " + by(keep) + " (" + String.join(" or ", parts) + ")";
  }

  /**
   * What a counter gained in the step ending at each point: the difference of the last samples at
   * both ends, which telescopes over a range query's steps (the columns of a window sum to its
   * counter's gain, none counted twice or lost) where {@code increase(x[step])} would extrapolate,
   * and answer nothing when a step holds one scrape. A step across a counter reset (negative) and a
   * series' first step (nothing to subtract) give no point: a restart loses that one step, where a
   * 5-minute increase would smear it over five minutes of columns.
   */
  static String perStep(String p, String step) {
    return difference(p, p + " offset " + step);
  }

  /** {@link #perStep} of {@code now} against {@code before}, the same series one step earlier. */
  private static String difference(String now, String before) {
    return "(" + now + " - " + before + ") >= 0";
  }

  static String by(List<String> labels) {
    return "by (" + String.join(", ", labels) + ")";
  }

  static List<String> union(List<String> a, List<String> b, String... more) {
    Set<String> s = new LinkedHashSet<>(a);
    s.addAll(b);
    s.addAll(List.of(more));
    return new ArrayList<>(s);
  }

  /**
   * The labels one target's series of {@code src} are combined by: the group's and the target's.
   */
  static List<String> perTarget(List<String> g, SignalSource src) {
    List<String> labels = union(union(g, PromqlCompiler.TARGET), src.by());
    if (src.modelFromPod()) {
      labels.remove("model_name"); // the family has none: withModel adds the pod's
    }
    return labels;
  }

  static String ratio(String num, String den) {
    if (num == null || den == null) {
      return null;
    }
    return "(" + num + ") / (" + den + " > 0)";
  }

  /**
   * {@link #ratio} for a numerator split by labels of its own: each of its series over its group's
   * one denominator series.
   */
  static String ratioPerGroup(String num, String den, List<String> g) {
    if (num == null || den == null) {
      return null;
    }
    return "(" + num + ") / on (" + String.join(", ", g) + ") group_left () (" + den + " > 0)";
  }

  static String scale(String expr, double factor) {
    return factor == 1 ? expr : PromqlCompiler.num(factor) + " * " + expr;
  }
}
