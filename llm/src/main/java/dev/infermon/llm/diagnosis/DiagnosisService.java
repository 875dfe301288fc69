package dev.infermon.llm.diagnosis;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.BadParameterException;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.parser.PromqlParser;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Diagnosis over a window, the front door of this package: {@code infermon diagnose} and {@code
 * /api/v1/llm/diagnosis} both come here, so the window, the step and the thresholds are decided in
 * one place. A request leaves out what it likes ({@link DiagnosisRequest}); the end defaults to
 * now, the window to {@link #DEFAULT_WINDOW}, the step to {@link #step(long)}; {@link
 * Thresholds#DEFAULT}, with the alert pack's thresholds as configured, judge the states and the
 * symptoms. The inventory comes from the process's shared {@link InventoryService}.
 *
 * <p>Errors: {@link BadParameterException} for a window that is empty or a step that is not
 * positive; the backend's {@code QueryException}s as they come (a timeout is a {@code
 * QueryTimeoutException}).
 *
 * <p>Threading: thread-safe when the backend is; each call holds its own state.
 */
public final class DiagnosisService {
  /** How far back a diagnosis looks when not told: as a PromQL duration, for the CLI's default. */
  public static final String DEFAULT_WINDOW = "30m";

  static final long DEFAULT_WINDOW_MS = PromqlParser.parseDuration(DEFAULT_WINDOW);

  /** How far back an incident's alert is searched for when not told: as a PromQL duration. */
  public static final String INCIDENT_LOOKBACK = "24h";

  /** How long before the alert fired an incident's view starts when not told. */
  public static final String INCIDENT_LEAD_IN = "30m";

  /** An incident's lookback is at most this: its search is one range query at 15 s steps. */
  static final String MAX_INCIDENT_LOOKBACK = "7d";

  /** The finest step: one scrape interval of the usual 15 s. */
  static final long MIN_STEP_MS = 15_000;

  /** About this many points per series over the window, whatever its length. */
  static final long POINTS = 120;

  private final Diagnoser diagnoser;
  private final Supplier<Thresholds> thresholds;
  private final LongSupplier nowMs;
  private final AlertCauses causes;
  private final Incidents incidents;

  /** With its own inventory service, the wall clock and the default thresholds. */
  public DiagnosisService(QueryBackend backend, Catalog catalog) {
    this(backend, new InventoryService(catalog, backend));
  }

  /** Over the process's shared inventory service, which must read the same {@code backend}. */
  public DiagnosisService(QueryBackend backend, InventoryService inventories) {
    this(backend, inventories, () -> LlmConfig.Alerts.DEFAULT);
  }

  /**
   * Over the shared inventory service, with the alert pack's thresholds as {@code alerts} gives
   * them at each call (the configuration's {@code llm.alerts}, which a reload may change): the
   * symptoms diagnosis checks are the ones the loaded alerts fire on.
   */
  public DiagnosisService(
      QueryBackend backend, InventoryService inventories, Supplier<LlmConfig.Alerts> alerts) {
    this(
        backend,
        inventories,
        () -> Thresholds.DEFAULT.withAlerts(alerts.get()),
        System::currentTimeMillis);
  }

  DiagnosisService(
      QueryBackend backend,
      InventoryService inventories,
      Supplier<Thresholds> thresholds,
      LongSupplier nowMs) {
    if (thresholds == null || nowMs == null) {
      throw new IllegalArgumentException("thresholds and clock are required");
    }
    this.diagnoser = new Diagnoser(inventories, backend);
    this.thresholds = thresholds;
    this.nowMs = nowMs;
    LongFunction<Diagnosis> atEnd =
        end ->
            diagnose(
                new DiagnosisRequest(
                    OptionalLong.empty(),
                    OptionalLong.of(end),
                    OptionalLong.empty(),
                    OptionalLong.empty()));
    this.causes = new AlertCauses(inventories.catalog(), atEnd);
    // its own diagnoses, not the alert causes' cache: a view's dozen times would evict the live
    // evaluations' ones
    this.incidents = new Incidents(backend, causes, atEnd);
  }

  /**
   * Diagnoses the window {@code r} names.
   *
   * @throws BadParameterException {@code end} when the window is empty, {@code step} when the step
   *     is not positive
   */
  public Diagnosis diagnose(DiagnosisRequest r) {
    long end = r.endMs().orElseGet(nowMs);
    long start =
        r.startMs().isPresent()
            ? r.startMs().getAsLong()
            : end - r.windowMs().orElse(DEFAULT_WINDOW_MS);
    if (end <= start) {
      throw new BadParameterException("end", "end timestamp must not be before start time");
    }
    long step = r.stepMs().orElse(step(end - start));
    if (step <= 0) {
      throw new BadParameterException(
          "step",
          "zero or negative query resolution step widths are not accepted. Try a positive"
              + " integer");
    }
    return diagnoser.diagnose(start, end, step, thresholds.get());
  }

  /**
   * The cause of an active alert at {@code evalTimeMs}, from the diagnosis of the default window
   * ending then ({@link AlertCauses} says which alerts and which finding): empty when the alert has
   * no {@code model_name} or {@code pod} label or its expression reads no family the catalog knows.
   * Alerts evaluated at the same time share one diagnosis.
   *
   * @param alertName the rule's {@code alert}
   * @param expr the rule's expression
   * @param labels the alert's labels
   * @param activeAtMs when the alert became active (the dashboard link starts no later)
   * @param evalTimeMs the evaluation's time: the diagnosis window's end
   * @throws dev.infermon.promql.QueryException when the diagnosis's queries fail
   */
  public Optional<AlertCause> causeOf(
      String alertName, String expr, Map<String, String> labels, long activeAtMs, long evalTimeMs) {
    return causes.causeOf(alertName, expr, labels, activeAtMs, evalTimeMs);
  }

  /**
   * {@link #causeOf} as the alert's annotations ({@link AlertCause#annotations}), links under
   * {@code externalUrl}; when the diagnosis's queries fail, {@link AlertCause#ERROR} with the error
   * instead, so the alert says why it has no cause. Empty for an alert diagnosis does not speak to.
   */
  public Map<String, String> alertAnnotations(
      String alertName,
      String expr,
      Map<String, String> labels,
      long activeAtMs,
      long evalTimeMs,
      String externalUrl) {
    try {
      return causeOf(alertName, expr, labels, activeAtMs, evalTimeMs)
          .map(c -> c.annotations(externalUrl))
          .orElse(Map.of());
    } catch (QueryException e) {
      return Map.of(AlertCause.ERROR, "diagnosis failed: " + e.getMessage());
    }
  }

  /**
   * The incident of the alert {@code r} names: its last firing within the lookback before the end,
   * the expression's value for it from the lead-in before it fired to its end (or the request's end
   * while it fires), the diagnosis at steps over that view with the times its cause changed, and
   * the pods involved ({@link Incident}). Empty when the alert did not fire within the lookback.
   *
   * @throws BadParameterException {@code lookback} or {@code lead_in} when not positive or too long
   * @throws dev.infermon.promql.QueryException when the queries fail
   */
  public Optional<Incident> incident(IncidentRequest r) {
    long end = r.endMs().orElseGet(nowMs);
    long lookback = r.lookbackMs().orElse(PromqlParser.parseDuration(INCIDENT_LOOKBACK));
    if (lookback <= 0 || lookback > PromqlParser.parseDuration(MAX_INCIDENT_LOOKBACK)) {
      throw new BadParameterException(
          "lookback", "the lookback must be positive and at most " + MAX_INCIDENT_LOOKBACK);
    }
    long leadIn = r.leadInMs().orElse(PromqlParser.parseDuration(INCIDENT_LEAD_IN));
    if (leadIn < 0 || leadIn > lookback) {
      throw new BadParameterException(
          "lead_in", "the lead-in must be between 0 and the lookback (" + lookback / 1000 + "s)");
    }
    return incidents.incident(r, end, lookback, leadIn);
  }

  /**
   * The step for a window: {@link #POINTS} points over it in whole seconds, never finer than {@link
   * #MIN_STEP_MS} (a step shorter than the scrape interval only repeats samples).
   */
  public static long step(long windowMs) {
    return Math.max(MIN_STEP_MS, windowMs / POINTS / 1000 * 1000);
  }
}
