package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.signals.Aggregation;
import dev.infermon.llm.signals.Signal;
import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Compiles a {@link Measure} to PromQL for the engines and releases present. The shape is always
 * two-level: first per target (the series of one pod: vLLM's data-parallel engines summed for
 * counts, maxed for ratios; SGLang's duplicate TP-rank series collapsed with max; the total under
 * priorities selected), with the engine's alternative families (renames across releases) joined
 * with {@code or} so that a pod exposing both old and new names counts once; then across targets by
 * the level's labels. Engines are joined with {@code or} inside the outer aggregation, so a fleet
 * mixing vLLM and SGLang gets one series per group. Stateless; thread-safe.
 */
public final class PromqlCompiler {
  /** The labels that identify one target's series. */
  static final List<String> TARGET = List.of("namespace", "pod", "instance");

  private final Catalog catalog;

  public PromqlCompiler(Catalog catalog) {
    this.catalog = catalog;
  }

  /**
   * What a compilation needs besides the measure.
   *
   * @param filters the dashboard filters
   * @param panelMatch the panel's own matchers ({@code role=decode})
   * @param quantile the selected quantile, for {@link Measure.Quantile} without a fixed one
   * @param window the rate window ({@code 5m}, or {@code $__rate_interval} for Grafana)
   * @param presence which families may be referenced
   * @param step the query's step as a PromQL duration ({@code 30s}, or {@code $__interval} for
   *     Grafana): a heatmap column counts what was observed in one step
   */
  public record Options(
      Filters filters,
      Map<String, String> panelMatch,
      double quantile,
      String window,
      Presence presence,
      String step) {
    public Options {
      if (!(quantile > 0 && quantile < 1)) {
        throw new IllegalArgumentException("quantile must be in (0, 1), got " + quantile);
      }
      if (step == null || step.isBlank()) {
        throw new IllegalArgumentException("step must be a duration, got \"" + step + "\"");
      }
      panelMatch = Map.copyOf(panelMatch);
    }

    /** Options whose step is the rate window (for queries that draw no heatmap: rules, probes). */
    public Options(
        Filters filters,
        Map<String, String> panelMatch,
        double quantile,
        String window,
        Presence presence) {
      this(filters, panelMatch, quantile, window, presence, window);
    }
  }

  /** The function {@link #parts} applies for a heatmap: the increase over one step, exactly. */
  private static final String PER_STEP = "per-step";

  /** {@code ms} as a PromQL duration: {@code 30s}, {@code 1500ms}. */
  public static String duration(long ms) {
    if (ms <= 0) {
      throw new IllegalArgumentException("a step must be positive, got " + ms + " ms");
    }
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }

  /** The PromQL for {@code m} at {@code level}, or empty when no engine present has its signals. */
  public Optional<String> compile(Measure m, Level level, Options o) {
    return Optional.ofNullable(expr(m, level.groupBy(), o));
  }

  /**
   * The PromQL for {@code m} grouped by {@code groupBy} (alert rules group by their own labels).
   */
  public Optional<String> compile(Measure m, List<String> groupBy, Options o) {
    return Optional.ofNullable(expr(m, List.copyOf(groupBy), o));
  }

  /**
   * What counter signal {@code s} gained in the step ending at each point, summed per group: the
   * per-step difference {@link #perStep} takes, so a range query's points sum to the counter's gain
   * over the query's span (a reset loses its one step). For engine signals; see {@link
   * #compileGpuGain} for dcgm-exporter's.
   */
  public Optional<String> compileGain(Signal s, List<String> groupBy, Options o) {
    return Optional.ofNullable(counter(s, "", List.copyOf(groupBy), o, PER_STEP, null));
  }

  /**
   * What dcgm-exporter counter signal {@code s} ({@link Signal#GPU_ENERGY}) gained in the step
   * ending at each point on the GPUs attributed to the inference pods in scope, per group and
   * scaled as the catalog says (millijoules to joules).
   */
  public Optional<String> compileGpuGain(Signal s, List<String> groupBy, Options o) {
    List<String> g = List.copyOf(groupBy);
    String joined = joinedGpu(s, g, o, true);
    if (joined == null) {
      return Optional.empty();
    }
    SignalSource src = resolve(s, g, o).get(0).source();
    return Optional.of(
        scale(src.aggregation().op() + " " + by(g) + " (" + joined + ")", src.scale()));
  }

  /**
   * The number of GPUs attributed to each group's pods ({@link Signal#GPU_COUNT}); {@code groupBy}
   * may name the GPUs' own labels ({@code modelName}) beside the pods'.
   */
  public Optional<String> compileGpuCount(List<String> groupBy, Options o) {
    return Optional.ofNullable(gpuCount(List.copyOf(groupBy), o));
  }

  private String expr(Measure m, List<String> g, Options o) {
    if (m instanceof Measure.Level) {
      return gauge(((Measure.Level) m).signal(), g, o);
    }
    if (m instanceof Measure.Rate) {
      return counter(((Measure.Rate) m).signal(), "", g, o, "rate", null);
    }
    if (m instanceof Measure.Quantile) {
      Measure.Quantile q = (Measure.Quantile) m;
      String buckets = buckets(q.signal(), g, o, "rate");
      double phi = q.fixed() != null ? q.fixed() : o.quantile();
      return buckets == null ? null : "histogram_quantile(" + num(phi) + ", " + buckets + ")";
    }
    if (m instanceof Measure.Mean) {
      Signal s = ((Measure.Mean) m).signal();
      return ratio(
          counter(s, "_sum", g, o, "rate", null), counter(s, "_count", g, o, "rate", null));
    }
    if (m instanceof Measure.Heatmap) {
      return buckets(((Measure.Heatmap) m).signal(), List.of(), o, PER_STEP);
    }
    if (m instanceof Measure.Ratio) {
      Measure.Ratio r = (Measure.Ratio) m;
      String q = ratio(expr(r.numerator(), g, o), expr(r.denominator(), g, o));
      return q == null || r.plus() == 0 ? q : num(r.plus()) + " + " + q;
    }
    if (m instanceof Measure.SuccessRate) {
      return successRate(g, o);
    }
    if (m instanceof Measure.DecodePerToken) {
      return decodePerToken(g, o);
    }
    if (m instanceof Measure.Gpu) {
      return gpu(((Measure.Gpu) m).signal(), g, o);
    }
    if (m instanceof Measure.IdleGpus) {
      return idleGpus(g, o);
    }
    if (m instanceof Measure.Lora) {
      return lora(((Measure.Lora) m).view(), g, o);
    }
    if (m instanceof Measure.PerGpu) {
      String value = expr(((Measure.PerGpu) m).measure(), g, o);
      String gpus = gpuCount(g, o);
      return ratio(value, gpus);
    }
    throw new AssertionError(m);
  }

  // ---------------------------------------------------------------------------------------------

  /** A selected source's families, with the engine they belong to. */
  private record Resolved(EngineCatalog engine, SignalSource source, List<String> families) {}

  /**
   * Sources of {@code s} whose families are present, per engine, preferred first; an engine without
   * prefill/decode roles has none in a view by or of role.
   */
  private List<Resolved> resolve(Signal s, List<String> g, Options o) {
    List<Resolved> out = new ArrayList<>();
    for (EngineCatalog e : catalog.engines()) {
      if (!e.disaggregated() && (g.contains("role") || o.panelMatch().containsKey("role"))) {
        continue; // its pods have no role: a role view has no branch of it
      }
      for (SignalSource src : e.sources(s)) {
        List<String> families = new ArrayList<>();
        for (String name : src.metrics()) {
          for (MetricEntry entry : e.entries(name)) {
            for (NameVariant v : e.variants()) {
              String f = entry.familyName(v);
              if (o.presence().has(e, v, entry) && !families.contains(f)) {
                families.add(f);
              }
            }
          }
        }
        if (!families.isEmpty()) {
          out.add(new Resolved(e, src, families));
        }
      }
    }
    return out;
  }

  private String selector(
      String family, String suffix, EngineCatalog e, SignalSource src, Options o) {
    // a family without model_name is scoped to a model through the pods it joins (podMap)
    Filters filters = src.modelFromPod() ? o.filters().without("model_name") : o.filters();
    List<String> matchers = new ArrayList<>();
    for (String m : filters.matchers(o.panelMatch())) {
      // the model filter reads the label that names the model of an engine without model_name
      boolean model = m.startsWith("model_name=") && !e.modelFromLabel().isEmpty();
      matchers.add(model ? e.modelFromLabel() + m.substring("model_name".length()) : m);
    }
    src.match().forEach((k, v) -> matchers.add(k + (v.isEmpty() ? "=" : "=~") + Filters.quote(v)));
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
  private String parts(Resolved r, String suffix, Options o, String fn) {
    List<String> parts = new ArrayList<>();
    boolean several = r.source().metrics().size() > 1;
    for (String f : r.families()) {
      String p = selector(f, suffix, r.engine(), r.source(), o);
      if (!r.source().valueLabels().isEmpty()) {
        p = labelValues(p, r.source().valueLabels());
      }
      if (PER_STEP.equals(fn)) {
        p = perStep(several ? named(p) : p, o.step());
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
      parts.add(modelNamed(p, r.engine()));
    }
    return String.join(" or ", parts);
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

  /**
   * What a counter gained in the step ending at each point: the difference of the last samples at
   * both ends, which telescopes over a range query's steps (the columns of a window sum to its
   * counter's gain, none counted twice or lost) where {@code increase(x[step])} would extrapolate,
   * and answer nothing when a step holds one scrape. A step across a counter reset (negative) and a
   * series' first step (nothing to subtract) give no point: a restart loses that one step, where a
   * 5-minute increase would smear it over five minutes of columns.
   */
  private static String perStep(String p, String step) {
    return "(" + p + " - " + p + " offset " + step + ") >= 0";
  }

  private static String by(List<String> labels) {
    return "by (" + String.join(", ", labels) + ")";
  }

  private static List<String> union(List<String> a, List<String> b, String... more) {
    Set<String> s = new LinkedHashSet<>(a);
    s.addAll(b);
    s.addAll(List.of(more));
    return new ArrayList<>(s);
  }

  /**
   * The labels one target's series of {@code src} are combined by: the group's and the target's.
   */
  private static List<String> perTarget(List<String> g, SignalSource src) {
    List<String> labels = union(union(g, TARGET), src.by());
    if (src.modelFromPod()) {
      labels.remove("model_name"); // the family has none: withModel adds the pod's
    }
    return labels;
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
    String pods = podMap(g, o);
    return pods == null
        ? null
        : "(" + perTarget + ") * on (namespace, pod) group_left (model_name, role) " + pods;
  }

  private String gauge(Signal s, List<String> g, Options o) {
    List<Resolved> rs = resolve(s, g, o);
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

  /** The per-second rate of a counter signal (or a histogram's _sum/_count), summed per group. */
  private String counter(
      Signal s, String suffix, List<String> g, Options o, String fn, Set<String> onlyEngines) {
    List<Resolved> rs = resolve(s, g, o);
    List<String> inner = new ArrayList<>();
    List<String> byLabels = List.of();
    for (Resolved r : rs) {
      if (onlyEngines != null && !onlyEngines.contains(r.engine().engine())) {
        continue;
      }
      byLabels = r.source().by();
      String one =
          withModel(
              "sum " + by(perTarget(g, r.source())) + " (" + parts(r, suffix, o, fn) + ")",
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
    return "sum " + by(union(g, byLabels)) + " (" + String.join(" or ", inner) + ")";
  }

  private String buckets(Signal s, List<String> g, Options o, String fn) {
    List<Resolved> rs = resolve(s, g, o);
    if (rs.isEmpty()) {
      return null;
    }
    List<String> inner = new ArrayList<>();
    for (Resolved r : rs) {
      inner.add(
          "sum "
              + by(union(union(g, TARGET), List.of(), "le"))
              + " ("
              + parts(r, "_bucket", o, fn)
              + ")");
    }
    return "sum " + by(union(g, List.of(), "le")) + " (" + String.join(" or ", inner) + ")";
  }

  private String successRate(List<String> g, Options o) {
    String finished = counter(Signal.REQUESTS_FINISHED, "", g, o, "rate", null);
    if (finished == null) {
      return null;
    }
    String failed = counter(Signal.REQUESTS_FAILED, "", g, o, "rate", null);
    // engines that create their failure counter lazily: no series yet means no failure yet
    Set<String> lazy = new LinkedHashSet<>();
    for (EngineCatalog e : catalog.engines()) {
      for (SignalSource src : e.sources(Signal.REQUESTS_FAILED)) {
        if (src.zeroWhenAbsent()) {
          lazy.add(e.engine());
        }
      }
    }
    String zero = lazy.isEmpty() ? null : counter(Signal.REQUESTS_FINISHED, "", g, o, "rate", lazy);
    if (zero != null) {
      failed = failed == null ? "0 * " + zero : "(" + failed + ") or 0 * " + zero;
    }
    if (failed == null) {
      return null;
    }
    return "1 - (" + failed + ") / (" + finished + " > 0)";
  }

  /**
   * Decode seconds per token decoded ({@link Measure.DecodePerToken}); the tokens are counted only
   * on the engines that measure decode time, so a model served by several engines divides like by
   * like.
   */
  private String decodePerToken(List<String> g, Options o) {
    Set<String> engines = new LinkedHashSet<>();
    resolve(Signal.DECODE_TIME, g, o).forEach(r -> engines.add(r.engine().engine()));
    String seconds = counter(Signal.DECODE_TIME, "_sum", g, o, "rate", engines);
    String tokens = counter(Signal.GENERATION_LENGTH, "_sum", g, o, "rate", engines);
    String requests = counter(Signal.GENERATION_LENGTH, "_count", g, o, "rate", engines);
    if (seconds == null || tokens == null || requests == null) {
      return null;
    }
    return ratio(seconds, tokens + " - " + requests);
  }

  /**
   * A LoRA view ({@link LoraQueries}): the lora family has no {@code model_name}, so its series are
   * selected without the model filter and joined to the pods in scope, which carry it.
   */
  private String lora(Measure.Lora.View view, List<String> g, Options o) {
    String pods = podMap(g, o);
    Options noModel =
        new Options(
            o.filters().without("model_name"),
            o.panelMatch(),
            o.quantile(),
            o.window(),
            o.presence(),
            o.step());
    List<String> families = new ArrayList<>();
    for (Resolved r : resolve(Signal.LORA_ADAPTERS, g, o)) {
      for (String f : r.families()) {
        families.add(selector(f, "", r.engine(), r.source(), noModel));
      }
    }
    if (pods == null || families.isEmpty()) {
      return null;
    }
    return LoraQueries.compile(view, families, pods, g, o.filters().adapter());
  }

  /** The inference pods in scope, one series per pod: {@code namespace, pod, model_name, role}. */
  private String podMap(List<String> g, Options o) {
    List<String> parts = new ArrayList<>();
    for (Resolved r : resolve(Signal.REQUESTS_RUNNING, g, o)) {
      for (String f : r.families()) {
        parts.add(modelNamed(selector(f, "", r.engine(), r.source(), o), r.engine()));
      }
    }
    if (parts.isEmpty()) {
      return null;
    }
    return "group by (namespace, pod, model_name, role) (" + String.join(" or ", parts) + ")";
  }

  /**
   * A dcgm signal's series relabelled to the inference pod they are attributed to ({@code
   * exported_pod} under honor_labels=false, else {@code pod}) and joined to the pods in scope;
   * unattributed GPUs, and GPUs of pods out of scope, drop out of the join.
   */
  private String joinedGpu(Signal s, List<String> g, Options o, boolean gain) {
    String pods = podMap(g, o);
    List<Resolved> rs = resolve(s, g, o);
    if (pods == null || rs.isEmpty()) {
      return null;
    }
    List<String> raw = new ArrayList<>();
    for (Resolved r : rs) {
      for (String f : r.families()) {
        // a counter (the energy counter) is read as its per-second rate before the join
        String read = gain ? perStep(f, o.step()) : "rate(" + f + "[" + o.window() + "])";
        raw.add(attributed(isCounter(r, f) ? read : f));
      }
    }
    return "("
        + String.join(" or ", raw)
        + ") * on (namespace, pod) group_left (model_name, role) "
        + pods;
  }

  private String gpu(Signal s, List<String> g, Options o) {
    String joined = joinedGpu(s, g, o, false);
    if (joined == null) {
      return null;
    }
    SignalSource src = resolve(s, g, o).get(0).source();
    return scale(src.aggregation().op() + " " + by(g) + " (" + joined + ")", src.scale());
  }

  /**
   * The GPUs attributed to each group's pods, from every per-GPU family present ({@link
   * Signal#GPU_COUNT}): one GPU's series of several families differ only by name, so dropping the
   * name leaves one series per GPU whichever families its exporter exports.
   */
  private String gpuCount(List<String> g, Options o) {
    String pods = podMap(g, o);
    List<Resolved> rs = resolve(Signal.GPU_COUNT, g, o);
    if (pods == null || rs.isEmpty()) {
      return null;
    }
    List<String> raw = new ArrayList<>();
    for (Resolved r : rs) {
      r.families().forEach(f -> raw.add(attributed(f)));
    }
    return "count "
        + by(g)
        + " (max without (__name__) ("
        + String.join(" or ", raw)
        + ") * on (namespace, pod) group_left (model_name, role) "
        + pods
        + ")";
  }

  /**
   * Each pod's GPUs times whether it runs no request ({@code == bool 0}), summed per group: a busy
   * pod adds 0, so a fleet without idle GPUs draws a line at 0 rather than nothing.
   */
  private String idleGpus(List<String> g, Options o) {
    String gpus = gpuCount(union(POD_KEYS, List.of()), o);
    String running = gauge(Signal.REQUESTS_RUNNING, TARGET.subList(0, 2), o);
    if (gpus == null || running == null) {
      return null;
    }
    return "sum "
        + by(g)
        + " ("
        + gpus
        + " * on (namespace, pod) group_left () ("
        + running
        + " == bool 0))";
  }

  /** The labels of one inference pod as {@link #podMap} keeps them. */
  private static final List<String> POD_KEYS = List.of("namespace", "pod", "model_name", "role");

  private static boolean isCounter(Resolved r, String family) {
    for (String name : r.source().metrics()) {
      for (MetricEntry e : r.engine().entries(name)) {
        for (NameVariant v : r.engine().variants()) {
          if (e.familyName(v).equals(family)) {
            return e.type() == MetricType.COUNTER;
          }
        }
      }
    }
    return false;
  }

  /** A dcgm family's series with the inference pod they are attributed to as namespace/pod. */
  private static String attributed(String family) {
    return "label_replace(label_replace("
        + family
        + ", \"pod\", \"$1\", \"exported_pod\", \"(.+)\"), \"namespace\", \"$1\","
        + " \"exported_namespace\", \"(.+)\")";
  }

  private static String ratio(String num, String den) {
    if (num == null || den == null) {
      return null;
    }
    return "(" + num + ") / (" + den + " > 0)";
  }

  private static String scale(String expr, double factor) {
    return factor == 1 ? expr : num(factor) + " * " + expr;
  }

  static String num(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return String.format(Locale.ROOT, "%s", d);
  }
}
