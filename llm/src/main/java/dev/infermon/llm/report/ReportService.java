package dev.infermon.llm.report;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.BadParameterException;
import dev.infermon.llm.capacity.CapacityReport;
import dev.infermon.llm.capacity.CapacityRequest;
import dev.infermon.llm.capacity.CapacityService;
import dev.infermon.llm.capacity.Headroom;
import dev.infermon.llm.diagnosis.Diagnosis;
import dev.infermon.llm.diagnosis.DiagnosisRequest;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.efficiency.Efficiency;
import dev.infermon.llm.efficiency.EfficiencyRequest;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.efficiency.Figures;
import dev.infermon.llm.efficiency.Group;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.parser.PromqlParser;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The report over a window, the front door of this package: {@code infermon report} and {@code
 * /api/v1/llm/report} both come here, so the window, its periods and the worst periods' count are
 * decided in one place (docs/report.md). Per model: the traffic it served, its SLOs' attainment,
 * its worst periods by time to first token each with the diagnosis of that period, its capacity
 * headroom and its efficiency and cost — the last three through {@link CapacityService}, {@link
 * DiagnosisService} and {@link EfficiencyService}, so every figure is the one those answer.
 *
 * <p>Errors: {@link BadParameterException} for a window that is not positive or too long ({@code
 * window}), a worst count out of range ({@code worst}), and no samples in the window ({@code
 * model}, or {@code window} without a model: never a report of zeros); the backend's {@code
 * QueryException}s as they come.
 *
 * <p>Threading: thread-safe when the backend and services are; each call holds its own state.
 */
public final class ReportService {
  /** The window when not told: one week, a capacity planner's usual look. */
  public static final String DEFAULT_WINDOW = "7d";

  /** The longest window: the capacity estimate's longest look-back. */
  public static final String MAX_WINDOW = CapacityService.MAX_LOOKBACK;

  /** Worst periods per model when not told, and at most. */
  public static final int DEFAULT_WORST = 3;

  static final int MAX_WORST = 20;

  static final long DEFAULT_WINDOW_MS = PromqlParser.parseDuration(DEFAULT_WINDOW);
  static final long MAX_WINDOW_MS = PromqlParser.parseDuration(MAX_WINDOW);

  /** The shortest period: long enough for a diagnosis to see a state build up. */
  static final long MIN_PERIOD_MS = 10 * 60_000L;

  /** About this many periods per window: a week in hours. */
  static final long PERIODS = 168;

  private final ReportQueries queries;
  private final DiagnosisService diagnosis;
  private final CapacityService capacity;
  private final EfficiencyService efficiency;
  private final Supplier<LlmConfig.Alerts> alerts;
  private final Supplier<List<LlmConfig.Slo>> slos;
  private final LongSupplier nowMs;

  /**
   * Over the process's shared inventory service and the services built over the same {@code
   * backend}, with the alert pack's thresholds and the SLOs as {@code alerts} and {@code slos} give
   * them at each call ({@code llm.alerts}, {@code llm.slos}; a reload may change them).
   */
  public ReportService(
      QueryBackend backend,
      InventoryService inventories,
      DiagnosisService diagnosis,
      CapacityService capacity,
      EfficiencyService efficiency,
      Supplier<LlmConfig.Alerts> alerts,
      Supplier<List<LlmConfig.Slo>> slos) {
    this(
        backend,
        inventories,
        diagnosis,
        capacity,
        efficiency,
        alerts,
        slos,
        System::currentTimeMillis);
  }

  ReportService(
      QueryBackend backend,
      InventoryService inventories,
      DiagnosisService diagnosis,
      CapacityService capacity,
      EfficiencyService efficiency,
      Supplier<LlmConfig.Alerts> alerts,
      Supplier<List<LlmConfig.Slo>> slos,
      LongSupplier nowMs) {
    if (diagnosis == null
        || capacity == null
        || efficiency == null
        || alerts == null
        || slos == null
        || nowMs == null) {
      throw new IllegalArgumentException("the services, thresholds, SLOs and clock are required");
    }
    this.queries = new ReportQueries(backend, inventories);
    this.diagnosis = diagnosis;
    this.capacity = capacity;
    this.efficiency = efficiency;
    this.alerts = alerts;
    this.slos = slos;
    this.nowMs = nowMs;
  }

  /** The period for a window: about {@link #PERIODS} of it in whole minutes, at least 10 m. */
  public static long period(long windowMs) {
    return Math.max(MIN_PERIOD_MS, windowMs / PERIODS / 60_000 * 60_000);
  }

  /** As {@link #report(ReportRequest, Consumer)} without progress. */
  public Report report(ReportRequest r) {
    return report(r, s -> {});
  }

  /**
   * The report {@code r} asks for; {@code progress} hears one line per stage (a week of a large
   * fleet takes a while: the CLI prints them on stderr).
   *
   * @throws BadParameterException {@code window} when not positive or beyond {@link #MAX_WINDOW},
   *     {@code worst} when not in 1..20, {@code model} (or {@code window} for every model) when no
   *     model has samples in the window
   */
  public Report report(ReportRequest r, Consumer<String> progress) {
    long window = window(r);
    int worst = r.worst().orElse(DEFAULT_WORST);
    if (worst < 1 || worst > MAX_WORST) {
      throw new BadParameterException(
          "worst", "the worst periods must number 1 to " + MAX_WORST + ", got " + worst);
    }
    long end = r.endMs().orElseGet(nowMs) / 1000 * 1000;
    long period = period(window);
    long periods = -Math.floorDiv(-window, period);
    long start = end - periods * period;
    LlmConfig.Alerts a = alerts.get();
    progress.accept(
        "traffic of " + (r.model().isEmpty() ? "every model" : r.model()) + " " + span(start, end));
    Map<String, ReportQueries.ModelTraffic> traffic =
        queries.traffic(start, end, period, r.model());
    if (traffic.isEmpty()) {
      throw r.model().isEmpty()
          ? new BadParameterException(
              "window",
              "no samples of any model's request counters in the window " + span(start, end))
          : new BadParameterException(
              "model",
              "no samples for model \"" + r.model() + "\" in the window " + span(start, end));
    }
    progress.accept("time to first token per period (" + periods + " periods)");
    Map<String, List<ReportQueries.PeriodValue>> ttft =
        queries.ttft(start, end, period, r.model(), a.ttftQuantile());
    progress.accept("capacity headroom over " + window / 1000 + "s");
    CapacityReport cap = capacity(r.model(), window, end);
    progress.accept("efficiency and cost");
    Efficiency eff =
        efficiency.compute(
            new EfficiencyRequest(
                OptionalLong.of(start), OptionalLong.of(end), OptionalLong.empty(), r.model(), ""));
    Map<Long, Diagnosis> diagnoses = new HashMap<>();
    List<ModelReport> models = new ArrayList<>();
    for (Map.Entry<String, ReportQueries.ModelTraffic> e : traffic.entrySet()) {
      String model = e.getKey();
      progress.accept("SLOs and worst periods of " + model);
      List<WorstPeriod> worstPeriods = new ArrayList<>();
      for (ReportQueries.PeriodValue p : ReportQueries.worst(ttft.get(model), worst)) {
        Diagnosis d = diagnoses.computeIfAbsent(p.endMs(), t -> diagnose(t, period, progress));
        worstPeriods.add(
            new WorstPeriod(
                p.endMs() - period,
                p.endMs(),
                p.value(),
                a.ttftQuantile(),
                e.getValue().rateOfPeriodEndingAt(p.endMs()),
                d.findings().stream().filter(f -> f.model().equals(model)).toList()));
      }
      models.add(
          new ModelReport(
              model,
              e.getValue().traffic(),
              queries.slos(model, sloFor(model, a), end, end - start),
              worstPeriods,
              headroom(cap, model),
              figures(eff, model)));
    }
    return new Report(start, end, period, eff.currency(), models);
  }

  /** The capacity estimate with the window as look-back (at least the current rate's span). */
  private CapacityReport capacity(String model, long window, long end) {
    return capacity.estimate(
        new CapacityRequest(
            Optional.ofNullable(model.isEmpty() ? null : model),
            Optional.empty(),
            OptionalLong.of(Math.max(window, CapacityService.CURRENT_MS)),
            OptionalLong.of(end)));
  }

  private static long window(ReportRequest r) {
    long window = r.windowMs().orElse(DEFAULT_WINDOW_MS);
    if (window <= 0) {
      throw new BadParameterException("window", "the window must be positive");
    }
    if (window > MAX_WINDOW_MS) {
      throw new BadParameterException(
          "window", "the window must not exceed " + MAX_WINDOW + ", got " + window / 1000 + "s");
    }
    return window;
  }

  /** The diagnosis of the period ending at {@code endMs}, every model's findings. */
  private Diagnosis diagnose(long endMs, long period, Consumer<String> progress) {
    progress.accept("diagnosis of " + span(endMs - period, endMs));
    return diagnosis.diagnose(
        new DiagnosisRequest(
            OptionalLong.of(endMs - period),
            OptionalLong.of(endMs),
            OptionalLong.empty(),
            OptionalLong.empty()));
  }

  /** The model's SLOs of {@code llm.slos}; without any, the alert pack's TTFT and success ones. */
  private List<ReportQueries.Objective> sloFor(String model, LlmConfig.Alerts a) {
    List<ReportQueries.Objective> out = new ArrayList<>();
    for (LlmConfig.Slo s : slos.get()) {
      if (s.model().equals(model)) {
        out.add(new ReportQueries.Objective(s, "llm.slos"));
      }
    }
    if (out.isEmpty()) {
      out.add(
          new ReportQueries.Objective(
              new LlmConfig.Slo(
                  model + "-ttft",
                  model,
                  "ttft",
                  "",
                  a.ttftThreshold(),
                  a.ttftQuantile(),
                  LlmConfig.Slo.DEFAULT_WINDOW),
              "llm.alerts"));
      out.add(
          new ReportQueries.Objective(
              new LlmConfig.Slo(
                  model + "-success",
                  model,
                  "success",
                  "",
                  java.time.Duration.ZERO,
                  1 - a.failureRatio(),
                  LlmConfig.Slo.DEFAULT_WINDOW),
              "llm.alerts"));
    }
    return out;
  }

  private static List<Headroom> headroom(CapacityReport r, String model) {
    return r.models().stream().filter(h -> h.model().equals(model)).toList();
  }

  private static Optional<Figures> figures(Efficiency e, String model) {
    for (Group g : e.models()) {
      if (model.equals(g.labels().get("model_name"))) {
        return Optional.of(g.figures());
      }
    }
    return Optional.empty();
  }

  static String span(long startMs, long endMs) {
    return Instant.ofEpochMilli(startMs) + " to " + Instant.ofEpochMilli(endMs);
  }
}
