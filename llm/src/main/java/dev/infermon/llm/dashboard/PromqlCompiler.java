package dev.infermon.llm.dashboard;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.signals.Signal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

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

  private final Selectors selectors;
  private final CounterQueries counters;
  private final GpuQueries gpus;
  private final DerivedQueries derived;
  private final RouterQueries routers;

  public PromqlCompiler(Catalog catalog) {
    this.selectors = new Selectors(catalog);
    this.counters = new CounterQueries(selectors);
    this.gpus = new GpuQueries(selectors, counters);
    this.derived = new DerivedQueries(selectors, counters);
    this.routers = new RouterQueries(catalog.nonEngine(), selectors);
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
      // in name order: Map.copyOf's order changes from one JVM to the next, and with it the
      // query's text (the results cache's key, the exports, the goldens)
      panelMatch = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(panelMatch));
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

  /** {@code ms} as a PromQL duration: {@code 30s}, {@code 1500ms}. */
  public static String duration(long ms) {
    if (ms <= 0) {
      throw new IllegalArgumentException("a step must be positive, got " + ms + " ms");
    }
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }

  /** The routers whose signature families are present. */
  java.util.List<dev.infermon.llm.catalog.Router> routersPresent(Presence presence) {
    return routers.present(presence);
  }

  /**
   * One series while router {@code r} names pods the options' filters keep in one of its per-pod
   * families, or null when it exposes none.
   */
  String fronted(dev.infermon.llm.catalog.Router r, Options o) {
    return routers.fronted(r, o);
  }

  /** {@link RouterQueries#frontedByModel}. */
  String frontedByModel(dev.infermon.llm.catalog.Router r, Options o) {
    return routers.frontedByModel(r, o);
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
   * per-step difference {@link Selectors#perStep} takes, so a range query's points sum to the
   * counter's gain over the query's span (a reset loses its one step). For engine signals; see
   * {@link #compileGpuGain} for dcgm-exporter's.
   */
  public Optional<String> compileGain(Signal s, List<String> groupBy, Options o) {
    return Optional.ofNullable(
        counters.counter(s, "", List.copyOf(groupBy), o, Selectors.PER_STEP, null));
  }

  /**
   * What dcgm-exporter counter signal {@code s} ({@link Signal#GPU_ENERGY}) gained in the step
   * ending at each point on the GPUs attributed to the inference pods in scope, per group and
   * scaled as the catalog says (millijoules to joules).
   */
  public Optional<String> compileGpuGain(Signal s, List<String> groupBy, Options o) {
    return Optional.ofNullable(gpus.gpu(s, List.copyOf(groupBy), o, true));
  }

  /**
   * The number of GPUs attributed to each group's pods ({@link Signal#GPU_COUNT}); {@code groupBy}
   * may name the GPUs' own labels ({@code modelName}) beside the pods'.
   */
  public Optional<String> compileGpuCount(List<String> groupBy, Options o) {
    return Optional.ofNullable(gpus.gpuCount(List.copyOf(groupBy), o));
  }

  /**
   * {@link Measure.CostPerMillionTokens} at {@code cost}'s prices, grouped by {@code groupBy}:
   * empty without a price or without the signals (a plain {@link #compile} of the measure is always
   * empty, as an export has no prices).
   */
  public Optional<String> compileCostPerMillionTokens(
      List<String> groupBy, Options o, LlmConfig.Cost cost) {
    return Optional.ofNullable(gpus.costPerMillionTokens(List.copyOf(groupBy), o, cost));
  }

  private String expr(Measure m, List<String> g, Options o) {
    if (m instanceof Measure.Level) {
      return counters.gauge(((Measure.Level) m).signal(), g, o);
    }
    if (m instanceof Measure.Rate) {
      return counters.counter(((Measure.Rate) m).signal(), "", g, o, "rate", null);
    }
    if (m instanceof Measure.Quantile) {
      Measure.Quantile q = (Measure.Quantile) m;
      return counters.quantile(q.signal(), g, o, q.fixed() != null ? q.fixed() : o.quantile());
    }
    if (m instanceof Measure.Mean) {
      Signal s = ((Measure.Mean) m).signal();
      return Selectors.ratio(
          counters.counter(s, "_sum", g, o, "rate", null),
          counters.counter(s, "_count", g, o, "rate", null));
    }
    if (m instanceof Measure.Heatmap) {
      return counters.heatmap(((Measure.Heatmap) m).signal(), o, Selectors.PER_STEP);
    }
    if (m instanceof Measure.Ratio) {
      Measure.Ratio r = (Measure.Ratio) m;
      String num = expr(r.numerator(), g, o);
      String den = expr(r.denominator(), g, o);
      String q =
          splits(r.numerator(), g, o) && !splits(r.denominator(), g, o)
              ? Selectors.ratioPerGroup(num, den, g)
              : Selectors.ratio(num, den);
      return q == null || r.plus() == 0 ? q : num(r.plus()) + " + " + q;
    }
    if (m instanceof Measure.SuccessRate) {
      return derived.successRate(g, o);
    }
    if (m instanceof Measure.DecodePerToken) {
      return derived.decodePerToken(g, o);
    }
    if (m instanceof Measure.Gpu) {
      return gpus.gpu(((Measure.Gpu) m).signal(), g, o, false);
    }
    if (m instanceof Measure.IdleGpus) {
      return gpus.idleGpus(g, o);
    }
    if (m instanceof Measure.Lora) {
      return derived.lora(((Measure.Lora) m).view(), g, o);
    }
    if (m instanceof Measure.CostPerMillionTokens) {
      return null;
    }
    if (m instanceof Measure.Router) {
      return routers.compile((Measure.Router) m, g, o);
    }
    if (m instanceof Measure.PerGpu) {
      String value = expr(((Measure.PerGpu) m).measure(), g, o);
      return Selectors.ratio(value, gpus.gpuCount(g, o));
    }
    if (m instanceof Measure.OfPeak) {
      return ofPeak((Measure.OfPeak) m, g, o);
    }
    throw new AssertionError(m);
  }

  /**
   * Whether {@code m} keeps labels of its own beside the group's (a signal's {@code by}, such as
   * the draft {@code position}): divided by a measure without them, each of its series is divided
   * by its group's one.
   */
  private boolean splits(Measure m, List<String> g, Options o) {
    Signal s =
        m instanceof Measure.Rate
            ? ((Measure.Rate) m).signal()
            : m instanceof Measure.Level ? ((Measure.Level) m).signal() : null;
    if (s == null) {
      return false;
    }
    List<Selectors.Resolved> rs = selectors.resolve(s, g, o);
    return !rs.isEmpty() && !rs.get(0).source().by().isEmpty();
  }

  /** The sum of per-GPU rates over the mean peak of the group's GPUs; null when a part is. */
  private String ofPeak(Measure.OfPeak m, List<String> g, Options o) {
    List<String> rates = new java.util.ArrayList<>();
    for (Signal s : m.rates()) {
      String r = counters.counter(s, "", g, o, "rate", null);
      if (r == null) {
        return null;
      }
      rates.add("(" + r + ")");
    }
    return Selectors.ratio(String.join(" + ", rates), gpus.peakMean(m.peak(), g, o));
  }

  static String num(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return String.format(Locale.ROOT, "%s", d);
  }
}
