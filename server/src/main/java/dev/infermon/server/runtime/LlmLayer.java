package dev.infermon.server.runtime;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.lint.LintService;
import dev.infermon.llm.capacity.CapacityService;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.export.ExportService;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.report.ReportService;
import dev.infermon.llm.slo.SloService;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.rules.AlertAnnotator;
import dev.infermon.web.WebServices;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The LLM layer of one process, built in this one place: the catalog (loaded once), the exports and
 * a lint service without a store from the start (they need no storage); once a query backend is
 * bound, one {@link InventoryService} and over it the dashboard, diagnosis, SLO, stored-lint and
 * efficiency, capacity and report services, so every part reads the same inventory cache. {@code
 * serve} binds its embedded or remote backend when the storage is ready; {@code infermon lint} and
 * {@code infermon diagnose} bind the remote API they are pointed at.
 *
 * <p>Threading: {@link #bind} and {@link #unbind} from the lifecycle's thread; the accessors from
 * any thread (the bound services are published together).
 */
public final class LlmLayer {
  private final Catalog catalog = Catalog.builtIn();
  private final ExportService exports = new ExportService(catalog);
  private final LintService storeless = new LintService(catalog);
  private volatile Bound bound;

  /** The services of a backend, built together. */
  private record Bound(
      DashboardService dashboard,
      DiagnosisService diagnosis,
      SloService slo,
      LintService lint,
      EfficiencyService efficiency,
      CapacityService capacity,
      ReportService report) {}

  /**
   * A layer over a remote API for one command (the CLI's): {@code backend} under the query stack
   * without the results cache ({@link QueryStack#withoutCache}), so the dashboard's queries still
   * run in parallel and identical ones once.
   */
  public static LlmLayer over(QueryBackend backend) {
    LlmLayer l = new LlmLayer();
    l.bind(QueryStack.withoutCache(backend));
    return l;
  }

  /**
   * As {@link #over(QueryBackend)}, with the {@code llm} section's thresholds, prices and SLOs (the
   * CLI's {@code --config}).
   */
  public static LlmLayer over(QueryBackend backend, LlmConfig llm) {
    LlmLayer l = new LlmLayer();
    l.bind(QueryStack.withoutCache(backend), llm::alerts, llm::cost, llm::slos);
    return l;
  }

  /** As {@link #bind(QueryBackend, Supplier, Supplier)} with the defaults: no prices. */
  public void bind(QueryBackend stack) {
    bind(stack, () -> LlmConfig.Alerts.DEFAULT);
  }

  /** As {@link #bind(QueryBackend, Supplier, Supplier)} without prices. */
  public void bind(QueryBackend stack, Supplier<LlmConfig.Alerts> alerts) {
    bind(stack, alerts, () -> LlmConfig.Cost.NONE);
  }

  /**
   * Builds the storage's services over {@code stack}.
   *
   * @param stack the process's query stack ({@link QueryStack}), used as given: the services ask it
   *     for parallel evaluation ({@link QueryBackend#rangeQueryAsync}) and take whatever joining
   *     and caching it does
   * @param alerts the loaded alert pack's thresholds ({@code llm.alerts}, read at each diagnosis):
   *     the symptoms diagnosis checks are the ones the alerts fire on
   * @param cost the GPU-hour prices ({@code llm.cost}, read at each efficiency request)
   */
  public void bind(
      QueryBackend stack, Supplier<LlmConfig.Alerts> alerts, Supplier<LlmConfig.Cost> cost) {
    bind(stack, alerts, cost, List::of);
  }

  /**
   * As {@link #bind(QueryBackend, Supplier, Supplier)}, with the SLOs the report measures ({@code
   * llm.slos}, read at each report).
   */
  public void bind(
      QueryBackend stack,
      Supplier<LlmConfig.Alerts> alerts,
      Supplier<LlmConfig.Cost> cost,
      Supplier<List<LlmConfig.Slo>> slos) {
    InventoryService inventories = new InventoryService(catalog, stack);
    DiagnosisService diagnosis = new DiagnosisService(stack, inventories, alerts);
    EfficiencyService efficiency = new EfficiencyService(stack, inventories, cost);
    CapacityService capacity = new CapacityService(stack, inventories);
    bound =
        new Bound(
            new DashboardService(stack, inventories, cost),
            diagnosis,
            new SloService(stack),
            new LintService(inventories),
            efficiency,
            capacity,
            new ReportService(stack, inventories, diagnosis, capacity, efficiency, alerts, slos));
  }

  /** The storage is going away: its services answer "not ready" from now on. */
  public void unbind() {
    bound = null;
  }

  /** Hands the services to the HTTP server, late-bound as the storage is. */
  public WebServices.Builder serve(WebServices.Builder b) {
    return b.dashboard(this::dashboard)
        .diagnosis(this::diagnosis)
        .slo(this::slo)
        .efficiency(this::efficiency)
        .lint(this::lint)
        .capacity(this::capacity)
        .report(this::report)
        .exports(exports);
  }

  /**
   * Annotates the rules' active alerts with their cause ({@link
   * DiagnosisService#alertAnnotations}), dashboard links under {@code externalUrl}; adds nothing
   * while no backend is bound. Thread-safe.
   */
  public AlertAnnotator alertCauses(Supplier<String> externalUrl) {
    return a -> {
      DiagnosisService d = diagnosis();
      if (d == null) {
        return Map.of();
      }
      String url = externalUrl.get();
      return d.alertAnnotations(
          a.alertName(),
          a.expr(),
          a.labels().toMap(),
          a.activeAtMs(),
          a.evalTimeMs(),
          url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
    };
  }

  public ExportService exports() {
    return exports;
  }

  /** Lint over the stored inventory once bound; before, the catalog and live endpoints only. */
  public LintService lint() {
    Bound b = bound;
    return b == null ? storeless : b.lint();
  }

  /** Null while no backend is bound. */
  public DashboardService dashboard() {
    Bound b = bound;
    return b == null ? null : b.dashboard();
  }

  /** Null while no backend is bound. */
  public DiagnosisService diagnosis() {
    Bound b = bound;
    return b == null ? null : b.diagnosis();
  }

  /** Null while no backend is bound. */
  public CapacityService capacity() {
    Bound b = bound;
    return b == null ? null : b.capacity();
  }

  /** Null while no backend is bound. */
  public SloService slo() {
    Bound b = bound;
    return b == null ? null : b.slo();
  }

  /** Null while no backend is bound. */
  public EfficiencyService efficiency() {
    Bound b = bound;
    return b == null ? null : b.efficiency();
  }

  /** Null while no backend is bound. */
  public ReportService report() {
    Bound b = bound;
    return b == null ? null : b.report();
  }
}
