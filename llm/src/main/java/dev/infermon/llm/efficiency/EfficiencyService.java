package dev.infermon.llm.efficiency;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.BadParameterException;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.signals.Signal;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Efficiency and cost over a window, the front door of this package ({@code
 * /api/v1/llm/efficiency}, the report): per model, per workload and per pod, generated tokens per
 * GPU-second, tokens per joule, idle GPU time and cost per million generated tokens
 * (docs/http-api.md#efficiency).
 *
 * <p>Everything is read through the catalog's canonical signals compiled for the engines present
 * ({@link PromqlCompiler}), so every engine and spelling counts alike: the generated tokens and the
 * GPUs' energy as each step's counter gain (summing to the window's gain, a counter reset losing
 * its one step), the GPUs attributed to each pod per dcgm-exporter {@code modelName} and its
 * running requests sampled every step. A pod's GPU-seconds are its GPU count at each step times the
 * step; idle GPU-seconds those at steps where it ran no request while awake, asleep GPU-seconds
 * those at steps where an engine slept (vLLM sleep mode: idle by choice); the cost its GPU-hours
 * per GPU model times {@code llm.cost}'s price. A figure that cannot be computed is absent with its
 * reason ({@link Figure}).
 *
 * <p>Errors: {@link BadParameterException} for an empty window, a step that is not positive, or too
 * many steps; the backend's {@code QueryException}s as they come.
 *
 * <p>Threading: thread-safe when the backend is; each call holds its own state.
 */
public final class EfficiencyService {
  /** The window when the request names no start: as a PromQL duration. */
  public static final String DEFAULT_WINDOW = "1h";

  static final long DEFAULT_WINDOW_MS = PromqlParser.parseDuration(DEFAULT_WINDOW);

  /** The finest default step, and what default steps are multiples of: one usual scrape. */
  static final long STEP_UNIT_MS = 15_000;

  /** Steps per window at most, as Prometheus bounds a range query's points. */
  static final long MAX_STEPS = 11_000;

  /** About this many steps for a long window, by default. */
  static final long DEFAULT_STEPS = 10_000;

  private static final List<String> POD = List.of("namespace", "pod");
  private static final List<String> POD_SCOPE =
      List.of("namespace", "pod", "model_name", "workload_name");

  private final QueryBackend backend;
  private final InventoryService inventories;
  private final PromqlCompiler compiler;
  private final Supplier<LlmConfig.Cost> cost;
  private final LongSupplier nowMs;
  private final Totals.Missing missing;

  /**
   * Over the process's shared inventory service, which must read the same {@code backend}, with the
   * prices {@code cost} gives at each call (the configuration's {@code llm.cost}, which a reload
   * may change).
   */
  public EfficiencyService(
      QueryBackend backend, InventoryService inventories, Supplier<LlmConfig.Cost> cost) {
    this(backend, inventories, cost, System::currentTimeMillis);
  }

  EfficiencyService(
      QueryBackend backend,
      InventoryService inventories,
      Supplier<LlmConfig.Cost> cost,
      LongSupplier nowMs) {
    if (backend == null || inventories == null || cost == null || nowMs == null) {
      throw new IllegalArgumentException("backend, inventories, cost and clock are required");
    }
    this.backend = backend;
    this.inventories = inventories;
    this.compiler = new PromqlCompiler(inventories.catalog());
    this.cost = cost;
    this.nowMs = nowMs;
    this.missing = missing(inventories.catalog());
  }

  /** The default step for a window: a multiple of 15 s, about {@link #DEFAULT_STEPS} of them. */
  public static long step(long windowMs) {
    long units = Math.max(1, -Math.floorDiv(-windowMs, DEFAULT_STEPS * STEP_UNIT_MS));
    return units * STEP_UNIT_MS;
  }

  /**
   * The figures over the window {@code r} names.
   *
   * @throws BadParameterException {@code end} when the window is empty, {@code step} when the step
   *     is not positive or divides the window into more than {@link #MAX_STEPS}
   */
  public Efficiency compute(EfficiencyRequest r) {
    long end = r.endMs().orElseGet(nowMs);
    long start = r.startMs().isPresent() ? r.startMs().getAsLong() : end - DEFAULT_WINDOW_MS;
    if (end <= start) {
      throw new BadParameterException("end", "end timestamp must be after start time");
    }
    long step = r.stepMs().orElse(step(end - start));
    if (step <= 0) {
      throw new BadParameterException(
          "step",
          "zero or negative query resolution step widths are not accepted. Try a positive"
              + " integer");
    }
    long steps = -Math.floorDiv(-(end - start), step);
    if (steps > MAX_STEPS) {
      throw new BadParameterException(
          "step",
          "the window holds "
              + steps
              + " steps of "
              + step
              + " ms, more than "
              + MAX_STEPS
              + "; choose a coarser step");
    }
    start = end - steps * step;
    Map<String, PodUsage> pods = read(start, end, step, r);
    return answer(start, end, step, pods);
  }

  private Map<String, PodUsage> read(long start, long end, long step, EfficiencyRequest r) {
    Map<String, String> scope = new TreeMap<>();
    scope.put("model_name", r.model());
    scope.put("workload_name", r.workload());
    String stepText = PromqlCompiler.duration(step);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.of(scope),
            Map.of(),
            0.5,
            stepText,
            Presence.ofTargets(inventories.inventory(end, end - start), inventories.catalog()),
            stepText);
    Map<String, PodUsage> pods = new TreeMap<>();
    long first = start + step;
    CompletableFuture<Void> running =
        run(
            pods,
            compiler.compile(new Measure.Level(Signal.REQUESTS_RUNNING), POD_SCOPE, o),
            first,
            end,
            step,
            s -> {
              PodUsage p = pod(pods, s);
              return (t, v) -> p.runningAt.put(t, v);
            });
    CompletableFuture<Void> asleep =
        run(
            pods,
            compiler.compile(new Measure.Level(Signal.ENGINES_ASLEEP), POD_SCOPE, o),
            first,
            end,
            step,
            s -> {
              PodUsage p = pod(pods, s);
              return (t, v) -> p.asleepAt.put(t, v);
            });
    CompletableFuture<Void> tokens =
        run(
            pods,
            compiler.compileGain(Signal.GENERATION_TOKENS, POD_SCOPE, o),
            first,
            end,
            step,
            s -> {
              PodUsage p = pod(pods, s);
              p.tokens = p.tokens == null ? 0 : p.tokens;
              return (t, v) -> p.tokens += v;
            });
    CompletableFuture<Void> gpus =
        run(
            pods,
            compiler.compileGpuCount(List.of("namespace", "pod", "modelName"), o),
            first,
            end,
            step,
            s -> {
              String model = orEmpty(s.labels().get("modelName"));
              PodUsage p = pod(pods, s);
              return (t, v) -> {
                p.gpuSeconds.merge(model, v * step / 1000.0, Double::sum);
                p.gpusAt.merge(t, v, Double::sum);
              };
            });
    CompletableFuture<Void> energy =
        run(
            pods,
            compiler.compileGpuGain(Signal.GPU_ENERGY, POD, o),
            first,
            end,
            step,
            s -> {
              PodUsage p = pod(pods, s);
              p.energyJoules = p.energyJoules == null ? 0 : p.energyJoules;
              return (t, v) -> p.energyJoules += v;
            });
    try {
      CompletableFuture.allOf(running, asleep, tokens, gpus, energy).join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      throw e;
    }
    return pods;
  }

  /**
   * Runs one range query, if it compiled, and hands each series' points to the consumer {@code
   * reader} makes for it, holding {@code lock}: the queries' answers arrive on the pool's threads,
   * one at a time is read into the pods.
   */
  private CompletableFuture<Void> run(
      Object lock,
      Optional<String> query,
      long start,
      long end,
      long step,
      java.util.function.Function<TimeSeries, BiConsumer<Long, Double>> reader) {
    if (query.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return backend
        .rangeQueryAsync(query.get(), start, end, step)
        .thenAccept(
            result -> {
              synchronized (lock) {
                read(result, reader);
              }
            });
  }

  private static void read(
      QueryResult result,
      java.util.function.Function<TimeSeries, BiConsumer<Long, Double>> reader) {
    if (!(result.value() instanceof Matrix)) {
      return;
    }
    for (TimeSeries s : ((Matrix) result.value()).series()) {
      BiConsumer<Long, Double> sink = reader.apply(s);
      for (int i = 0; i < s.size(); i++) {
        if (!Double.isNaN(s.valueAt(i))) {
          sink.accept(s.timestampAt(i), s.valueAt(i));
        }
      }
    }
  }

  private static PodUsage pod(Map<String, PodUsage> pods, TimeSeries s) {
    Labels l = s.labels();
    String ns = orEmpty(l.get("namespace"));
    String name = orEmpty(l.get("pod"));
    PodUsage p = pods.computeIfAbsent(ns + "/" + name, k -> new PodUsage(ns, name));
    // the GPU series carry neither: only the engine's series name the model and workload
    if (!orEmpty(l.get("model_name")).isEmpty()) {
      p.model = l.get("model_name");
    }
    if (!orEmpty(l.get("workload_name")).isEmpty()) {
      p.workload = l.get("workload_name");
    }
    return p;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  private Efficiency answer(long start, long end, long step, Map<String, PodUsage> pods) {
    LlmConfig.Cost c = cost.get();
    Map<String, List<PodUsage>> byModel = new TreeMap<>();
    Map<String, List<PodUsage>> byWorkload = new TreeMap<>();
    List<Group> perPod = new ArrayList<>();
    for (PodUsage p : pods.values()) {
      Map<String, String> labels = new TreeMap<>(Map.of("namespace", p.namespace, "pod", p.pod));
      if (!p.model.isEmpty()) {
        labels.put("model_name", p.model);
        byModel.computeIfAbsent(p.model, k -> new ArrayList<>()).add(p);
      }
      if (!p.workload.isEmpty()) {
        labels.put("workload_name", p.workload);
        byWorkload.computeIfAbsent(p.namespace + "\n" + p.workload, k -> new ArrayList<>()).add(p);
      }
      perPod.add(new Group(labels, List.of(p.key()), Totals.of(List.of(p), step, c, missing)));
    }
    List<Group> models = new ArrayList<>();
    byModel.forEach(
        (m, ps) ->
            models.add(
                new Group(Map.of("model_name", m), keys(ps), Totals.of(ps, step, c, missing))));
    List<Group> workloads = new ArrayList<>();
    byWorkload.forEach(
        (w, ps) ->
            workloads.add(
                new Group(
                    Map.of("namespace", w.split("\n")[0], "workload_name", w.split("\n")[1]),
                    keys(ps),
                    Totals.of(ps, step, c, missing))));
    return new Efficiency(start, end, step, c.currency(), models, workloads, perPod);
  }

  private static List<String> keys(List<PodUsage> pods) {
    List<String> out = new ArrayList<>();
    pods.forEach(p -> out.add(p.key()));
    return out;
  }

  /** The reasons' texts, naming the catalog's families of each signal (every engine's). */
  private static Totals.Missing missing(Catalog catalog) {
    return new Totals.Missing(
        "no generated-token counter (" + families(catalog, Signal.GENERATION_TOKENS) + ")",
        "no GPU attributed by dcgm-exporter or AMD device-metrics-exporter (no "
            + families(catalog, Signal.GPU_COUNT)
            + " series whose namespace and pod, or exported_namespace and exported_pod, are the"
            + " pod's)",
        "no running-requests gauge (" + families(catalog, Signal.REQUESTS_RUNNING) + ")",
        "no GPU energy counter (" + families(catalog, Signal.GPU_ENERGY) + ") on the GPUs");
  }

  /**
   * Signal {@code s}'s families as each engine's first spelling names them, joined by "or", after
   * the signal's display name: a reason a user reads names the quantity, not the catalog's key.
   */
  static String families(Catalog catalog, Signal s) {
    Set<String> out = new LinkedHashSet<>();
    for (EngineCatalog e : catalog.engines()) {
      for (SignalSource src : e.sources(s)) {
        for (String name : src.metrics()) {
          for (MetricEntry entry : e.entries(name)) {
            out.add(entry.familyName(e.variants().get(0)));
          }
        }
      }
    }
    return s.displayName() + ": " + String.join(" or ", out);
  }
}
