package dev.infermon.llm.report;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.signals.Signal;
import dev.infermon.llm.slo.SliSource;
import dev.infermon.llm.slo.SloRules;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Vector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The report's own queries, compiled from the catalog's canonical signals for the engines present
 * ({@link PromqlCompiler}): each model's counter gains step by step (requests, prompt and generated
 * tokens), its TTFT quantile per period, and its SLOs' error ratios over the whole window ({@link
 * SloRules#errorRatioOver}, the expression the recorded rules use). Stateless but for its
 * collaborators; thread-safe when the backend is.
 */
final class ReportQueries {
  /** At most this many traffic steps per window, as Prometheus bounds a range query's points. */
  static final long MAX_STEPS = 11_000;

  /** The finest traffic step: one usual scrape. */
  static final long MIN_STEP_MS = 15_000;

  private static final List<String> MODEL = List.of("model_name");

  private final QueryBackend backend;
  private final InventoryService inventories;
  private final Catalog catalog;
  private final PromqlCompiler compiler;

  ReportQueries(QueryBackend backend, InventoryService inventories) {
    if (backend == null || inventories == null) {
      throw new IllegalArgumentException("backend and inventories are required");
    }
    this.backend = backend;
    this.inventories = inventories;
    this.catalog = inventories.catalog();
    this.compiler = new PromqlCompiler(inventories.catalog());
  }

  /** An SLO to measure and where it comes from ({@link SloAttainment#source}). */
  record Objective(LlmConfig.Slo slo, String source) {}

  /** A value of one period, at the period's end. */
  record PeriodValue(long endMs, double value) {}

  /** One model's counter gains per period, and the traffic they add up to. */
  static final class ModelTraffic {
    private final long startMs;
    private final long periodMs;
    final double[] requests;
    double promptTokens;
    double generatedTokens;

    ModelTraffic(long startMs, long periodMs, int periods) {
      this.startMs = startMs;
      this.periodMs = periodMs;
      this.requests = new double[periods];
    }

    /** The bin of the period holding the step that ends at {@code t}. */
    int bin(long t) {
      return (int) Math.min(requests.length - 1, Math.max(0, (t - startMs - 1) / periodMs));
    }

    double rateOfPeriodEndingAt(long endMs) {
      return requests[bin(endMs)] / (periodMs / 1000.0);
    }

    Traffic traffic() {
      double total = 0;
      int peak = 0;
      for (int i = 0; i < requests.length; i++) {
        total += requests[i];
        if (requests[i] > requests[peak]) {
          peak = i;
        }
      }
      double seconds = requests.length * periodMs / 1000.0;
      return new Traffic(
          total,
          promptTokens,
          generatedTokens,
          total / seconds,
          requests[peak] / (periodMs / 1000.0),
          startMs + peak * periodMs);
    }
  }

  /**
   * The traffic step: the finest divisor of the period, in whole seconds and at least 15 s, that
   * keeps the window within {@link #MAX_STEPS} steps, so every step falls in one period.
   */
  static long step(long windowMs, long periodMs) {
    long periodS = periodMs / 1000;
    for (long s = MIN_STEP_MS / 1000; s < periodS; s++) {
      if (periodS % s == 0 && windowMs / (s * 1000) <= MAX_STEPS) {
        return s * 1000;
      }
    }
    return periodMs;
  }

  /** Per model with samples in the window (only {@code model} when not empty), its gains. */
  Map<String, ModelTraffic> traffic(long start, long end, long period, String model) {
    long step = step(end - start, period);
    PromqlCompiler.Options o = options(start, end, model, step, step);
    int periods = (int) ((end - start) / period);
    Map<String, ModelTraffic> out = new TreeMap<>();
    CompletableFuture<QueryResult> requests =
        range(compiler.compileGain(Signal.REQUESTS_FINISHED, MODEL, o), start + step, end, step);
    CompletableFuture<QueryResult> prompt =
        range(compiler.compileGain(Signal.PROMPT_TOKENS, MODEL, o), start + step, end, step);
    CompletableFuture<QueryResult> generated =
        range(compiler.compileGain(Signal.GENERATION_TOKENS, MODEL, o), start + step, end, step);
    for (TimeSeries s : series(join(requests))) {
      ModelTraffic m =
          out.computeIfAbsent(modelOf(s), k -> new ModelTraffic(start, period, periods));
      for (int i = 0; i < s.size(); i++) {
        if (!Double.isNaN(s.valueAt(i))) {
          m.requests[m.bin(s.timestampAt(i))] += s.valueAt(i);
        }
      }
    }
    for (TimeSeries s : series(join(prompt))) {
      ModelTraffic m = out.get(modelOf(s));
      if (m != null) {
        m.promptTokens += sum(s);
      }
    }
    for (TimeSeries s : series(join(generated))) {
      ModelTraffic m = out.get(modelOf(s));
      if (m != null) {
        m.generatedTokens += sum(s);
      }
    }
    out.remove("");
    return out;
  }

  /** Per model, its TTFT quantile {@code q} over each period with requests. */
  Map<String, List<PeriodValue>> ttft(long start, long end, long period, String model, double q) {
    PromqlCompiler.Options o = options(start, end, model, period, period);
    Optional<String> query = compiler.compile(new Measure.Quantile(Signal.TTFT, q), MODEL, o);
    Map<String, List<PeriodValue>> out = new TreeMap<>();
    for (TimeSeries s : series(join(range(query, start + period, end, period)))) {
      List<PeriodValue> values = out.computeIfAbsent(modelOf(s), k -> new ArrayList<>());
      for (int i = 0; i < s.size(); i++) {
        if (Double.isFinite(s.valueAt(i))) {
          values.add(new PeriodValue(s.timestampAt(i), s.valueAt(i)));
        }
      }
    }
    return out;
  }

  /** The {@code n} highest values, highest first (earlier first among equals). */
  static List<PeriodValue> worst(List<PeriodValue> values, int n) {
    if (values == null) {
      return List.of();
    }
    return values.stream()
        .sorted(
            Comparator.comparingDouble(PeriodValue::value)
                .reversed()
                .thenComparingLong(PeriodValue::endMs))
        .limit(n)
        .toList();
  }

  /** Each objective's attainment over the window ending at {@code end}. */
  List<SloAttainment> slos(String model, List<Objective> objectives, long end, long windowMs) {
    List<SloAttainment> out = new ArrayList<>();
    for (Objective ob : objectives) {
      LlmConfig.Slo slo = ob.slo();
      double threshold = slo.sli().equals("success") ? Double.NaN : SliSource.seconds(slo);
      Optional<String> expr = SloRules.errorRatioOver(slo, catalog, Duration.ofMillis(windowMs));
      String reason = "";
      OptionalDouble attainment = OptionalDouble.empty();
      if (expr.isEmpty()) {
        reason =
            "no engine measures "
                + slo.sli()
                + " exactly at "
                + threshold
                + "s: not a bound of its histogram (infermon lint --config)";
      } else {
        double errors = scalar(backend.instantQuery(expr.get(), end));
        if (Double.isNaN(errors)) {
          reason = "no requests of model \"" + model + "\" measured for " + slo.sli();
        } else {
          attainment = OptionalDouble.of(1 - errors);
        }
      }
      out.add(
          new SloAttainment(
              slo.name(), slo.sli(), ob.source(), slo.objective(), threshold, attainment, reason));
    }
    return out;
  }

  private PromqlCompiler.Options options(
      long start, long end, String model, long windowMs, long stepMs) {
    Map<String, String> scope = new TreeMap<>();
    scope.put("model_name", model);
    return new PromqlCompiler.Options(
        Filters.of(scope),
        Map.of(),
        0.5,
        PromqlCompiler.duration(windowMs),
        Presence.ofTargets(inventories.inventory(end, end - start), inventories.catalog()),
        PromqlCompiler.duration(stepMs));
  }

  private CompletableFuture<QueryResult> range(
      Optional<String> query, long start, long end, long step) {
    return query.isEmpty()
        ? CompletableFuture.completedFuture(null)
        : backend.rangeQueryAsync(query.get(), start, end, step);
  }

  private static QueryResult join(CompletableFuture<QueryResult> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      throw e;
    }
  }

  private static List<TimeSeries> series(QueryResult r) {
    return r != null && r.value() instanceof Matrix ? ((Matrix) r.value()).series() : List.of();
  }

  private static String modelOf(TimeSeries s) {
    String m = s.labels().get("model_name");
    return m == null ? "" : m;
  }

  private static double sum(TimeSeries s) {
    double total = 0;
    for (int i = 0; i < s.size(); i++) {
      if (!Double.isNaN(s.valueAt(i))) {
        total += s.valueAt(i);
      }
    }
    return total;
  }

  private static double scalar(QueryResult r) {
    if (r.value() instanceof Vector && !((Vector) r.value()).samples().isEmpty()) {
      return ((Vector) r.value()).samples().get(0).value();
    }
    return Double.NaN;
  }
}
