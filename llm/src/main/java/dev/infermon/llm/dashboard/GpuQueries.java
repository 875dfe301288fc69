package dev.infermon.llm.dashboard;

import static dev.infermon.llm.dashboard.Selectors.by;
import static dev.infermon.llm.dashboard.Selectors.perStep;
import static dev.infermon.llm.dashboard.Selectors.scale;
import static dev.infermon.llm.dashboard.Selectors.union;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.dashboard.PromqlCompiler.Options;
import dev.infermon.llm.dashboard.Selectors.Resolved;
import dev.infermon.llm.signals.Signal;
import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The GPU exporters' signals (dcgm-exporter's and AMD device-metrics-exporter's families, each
 * mapped to the same canonical signals in the catalog), attributed to the inference pods in scope:
 * a GPU signal per group, its per-step gain, the GPUs per group and the idle ones. Stateless;
 * thread-safe.
 */
final class GpuQueries {
  /** The labels of one inference pod as {@link Selectors#podMap} keeps them. */
  private static final List<String> POD_KEYS = List.of("namespace", "pod", "model_name", "role");

  /** The peak table, read once: it is data of the build, not of a request. */
  private static final GpuPeaks PEAKS = GpuPeaks.loadResource();

  private final Selectors selectors;
  private final CounterQueries counters;

  /** The GPU models the peak table knows (dcgm-exporter {@code modelName}), in its order. */
  static List<String> peakNames() {
    List<String> out = new ArrayList<>();
    PEAKS.gpus().forEach(p -> out.addAll(p.names()));
    return out;
  }

  GpuQueries(Selectors selectors, CounterQueries counters) {
    this.selectors = selectors;
    this.counters = counters;
  }

  /**
   * A dcgm signal's series relabelled to the inference pod they are attributed to ({@code
   * exported_pod} under honor_labels=false, else {@code pod}) and joined to the pods in scope;
   * unattributed GPUs, and GPUs of pods out of scope, drop out of the join.
   */
  private String joinedGpu(Signal s, List<String> g, Options o, boolean gain) {
    String pods = selectors.podMap(g, o);
    List<Resolved> rs = selectors.resolve(s, g, o);
    if (pods == null || rs.isEmpty()) {
      return null;
    }
    boolean perSource = !sameScale(rs);
    List<String> raw = new ArrayList<>();
    for (Resolved r : rs) {
      for (String f : r.families()) {
        String sel = f + matchers(r.source().match(), "");
        // a counter (an energy counter) is read as its per-second rate before the join
        String read = isCounter(r, f) ? counterRead(s, r, f, g, o, gain) : sel;
        String one = attributed(read, r);
        // exporters in other units (millijoules, micro-joules) are scaled before they are summed
        raw.add(perSource ? scale(one, r.source().scale()) : one);
      }
    }
    String read = "(" + String.join(" or ", raw) + ")";
    if (s == Signal.GPU_ENERGY) {
      // a device-level counter every MIG instance of a GPU repeats (NVIDIA/dcgm-exporter#257):
      // each instance takes its share, so a GPU's energy is counted once however it is cut
      read = "(" + MigShares.builtIn().weighted(read, MigShares.mayPartition(o.presence())) + ")";
    }
    return read + " * on (namespace, pod) group_left (model_name, role) " + pods;
  }

  /**
   * A GPU counter family's rate (or per-step gain). The energy of a partitioning exporter's GPUs
   * ({@link MigShares.Partitions}) is the physical GPU's, on its primary partition only: it is
   * copied onto each of the GPU's partitions, which {@link MigShares#weighted} then gives its
   * share.
   */
  private String counterRead(
      Signal s, Resolved r, String f, List<String> g, Options o, boolean gain) {
    MigShares.Partitions parts = MigShares.builtIn().partitions();
    Map<String, String> match = r.source().match();
    if (s != Signal.GPU_ENERGY || !r.engine().engine().equals(parts.engine())) {
      return rateOf(f + matchers(match, ""), o, gain);
    }
    List<String> perPartition = new ArrayList<>();
    for (Resolved c : selectors.resolve(Signal.GPU_COUNT, g, o)) {
      if (c.engine().engine().equals(parts.engine())) {
        perPartition.addAll(c.families());
      }
    }
    String whole =
        rateOf(f + matchers(match, parts.label() + "!~" + quote(parts.modeRegex())), o, gain);
    if (perPartition.isEmpty()) {
      return whole;
    }
    String primary =
        rateOf(f + matchers(match, parts.label() + "=~" + quote(parts.modeRegex())), o, gain);
    return MigShares.builtIn()
        .spread(
            whole, primary, "max without (__name__) (" + String.join(" or ", perPartition) + ")");
  }

  private static String rateOf(String selector, Options o, boolean gain) {
    return gain ? perStep(selector, o.step()) : "rate(" + selector + "[" + o.window() + "])";
  }

  /** {@code {k=~"v", ...}} of a source's matchers and {@code extra}, or "" when there are none. */
  private static String matchers(Map<String, String> match, String extra) {
    List<String> m = new ArrayList<>();
    match.forEach((k, v) -> m.add(k + (v.isEmpty() ? "=" : "=~") + quote(v)));
    if (!extra.isEmpty()) {
      m.add(extra);
    }
    return m.isEmpty() ? "" : "{" + String.join(", ", m) + "}";
  }

  /** A GPU signal per group (the energy counter as its rate, or its per-step gain). */
  String gpu(Signal s, List<String> g, Options o, boolean gain) {
    String joined = joinedGpu(s, g, o, gain);
    if (joined == null) {
      return null;
    }
    List<Resolved> rs = selectors.resolve(s, g, o);
    SignalSource src = rs.get(0).source();
    String agg = src.aggregation().op() + " " + by(g) + " (" + joined + ")";
    return sameScale(rs) ? scale(agg, src.scale()) : agg;
  }

  /** Whether every source present has one scale, applied once after the aggregation. */
  private static boolean sameScale(List<Resolved> rs) {
    return rs.stream().allMatch(r -> r.source().scale() == rs.get(0).source().scale());
  }

  /**
   * The GPUs attributed to each group's pods, from every per-GPU family present ({@link
   * Signal#GPU_COUNT}): one GPU's series of several families differ only by name, so dropping the
   * name leaves one series per GPU (or MIG instance) whichever families its exporter exports. Each
   * counts as its share of its GPU ({@link MigShares}): 1 whole, 1/7 for a 1g.10gb instance of an
   * H100.
   */
  String gpuCount(List<String> g, Options o) {
    String pods = selectors.podMap(g, o);
    List<Resolved> rs = selectors.resolve(Signal.GPU_COUNT, g, o);
    if (pods == null || rs.isEmpty()) {
      return null;
    }
    List<String> raw = new ArrayList<>();
    for (Resolved r : rs) {
      r.families().forEach(f -> raw.add(attributed(f, r)));
    }
    String perGpu = "max without (__name__) (" + String.join(" or ", raw) + ")";
    return "sum "
        + by(g)
        + " ("
        + MigShares.builtIn().shares(perGpu, MigShares.mayPartition(o.presence()))
        + " * on (namespace, pod) group_left (model_name, role) "
        + pods
        + ")";
  }

  /**
   * The mean peak of {@code kind} over the GPUs attributed to each group's pods: every GPU (one
   * series per GPU whichever families its exporter exports, as in {@link #gpuCount}) is given the
   * peak table's figure for its {@code modelName}; a GPU whose model the table lacks drops out of
   * that join, so a group with no known GPU has no series.
   */
  String peakMean(Measure.OfPeak.Peak kind, List<String> g, Options o) {
    String pods = selectors.podMap(g, o);
    List<Resolved> rs = selectors.resolve(Signal.GPU_COUNT, g, o);
    if (pods == null || rs.isEmpty()) {
      return null;
    }
    List<String> raw = new ArrayList<>();
    for (Resolved r : rs) {
      r.families().forEach(f -> raw.add(attributed(f, r)));
    }
    return "avg "
        + by(g)
        + " (group without (__name__) ("
        + String.join(" or ", raw)
        + ") * on (modelName) group_left () "
        + PEAKS.vector(kind)
        + " * on (namespace, pod) group_left (model_name, role) "
        + pods
        + ")";
  }

  /**
   * Each pod's GPUs times whether it runs no request ({@code == bool 0}), summed per group: a busy
   * pod adds 0, so a fleet without idle GPUs draws a line at 0 rather than nothing.
   */
  String idleGpus(List<String> g, Options o) {
    // role only where the view groups by it: a grouping with role drops the engines that have
    // no prefill/decode pods (llama.cpp), whose GPUs then counted as no one's
    List<String> keys = new ArrayList<>(POD_KEYS);
    if (!g.contains("role")) {
      keys.remove("role");
    }
    String gpus = gpuCount(keys, o);
    String running =
        counters.gauge(Signal.REQUESTS_RUNNING, PromqlCompiler.TARGET.subList(0, 2), o);
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

  /**
   * The group's GPUs per {@code modelName}, each priced per hour by {@code cost} (a model without
   * its own price at the default one, else left out), summed per second, over the group's generated
   * tokens per second, times a million; null without a price or the signals.
   */
  String costPerMillionTokens(List<String> g, Options o, LlmConfig.Cost cost) {
    if (!cost.priced()) {
      return null;
    }
    String gpus = gpuCount(union(g, List.of("modelName")), o);
    String tokens = counters.counter(Signal.GENERATION_TOKENS, "", g, o, "rate", null);
    if (gpus == null || tokens == null) {
      return null;
    }
    List<String> prices = new ArrayList<>();
    cost.gpuHourPrices()
        .forEach(
            (model, price) ->
                prices.add(
                    "label_replace(vector("
                        + PromqlCompiler.num(price)
                        + "), \"modelName\", "
                        + quote(model.replace("$", "$$"))
                        + ", \"\", \"\")"));
    String table = String.join(" or ", prices);
    String priced =
        prices.isEmpty() ? null : gpus + " * on (modelName) group_left () (" + table + ")";
    if (cost.defaultGpuHourPrice().isPresent()) {
      String rest =
          (prices.isEmpty()
                  ? "(" + gpus + ")"
                  : "(" + gpus + " unless on (modelName) (" + table + "))")
              + " * "
              + PromqlCompiler.num(cost.defaultGpuHourPrice().get());
      priced = priced == null ? rest : "(" + priced + ") or (" + rest + ")";
    }
    return "sum " + by(g) + " (" + priced + ") / 3600 / (" + tokens + " > 0) * 1000000";
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

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

  /**
   * A GPU exporter's family with the inference pod its series are attributed to as namespace/pod
   * and, for an exporter whose labels are not dcgm-exporter's, its model and index labels copied to
   * {@code modelName} (the peak and price tables' key) and {@code gpu} (the per-GPU panels').
   */
  private static String attributed(String family, Resolved r) {
    String read =
        copied(
            copied(family, r.engine().gpuModelLabel(), MODEL_LABEL),
            r.engine().gpuIndexLabel(),
            "gpu");
    return "label_replace(label_replace("
        + read
        + ", \"pod\", \"$1\", \"exported_pod\", \"(.+)\"), \"namespace\", \"$1\","
        + " \"exported_namespace\", \"(.+)\")";
  }

  /** {@code vector} with label {@code from} copied to {@code to}, unless they are one. */
  private static String copied(String vector, String from, String to) {
    if (from.isEmpty() || from.equals(to)) {
      return vector;
    }
    return "label_replace("
        + vector
        + ", "
        + quote(to)
        + ", \"$1\", "
        + quote(from)
        + ", \"(.+)\")";
  }

  /** The model label the GPU peak and price tables join on (dcgm-exporter's). */
  private static final String MODEL_LABEL = "modelName";
}
