package dev.infermon.web.llm;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.LoraAdapter;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.export.ExportService;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.web.api.ApiException;
import dev.infermon.web.api.Envelope;
import dev.infermon.web.api.ErrorType;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Router;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code /api/v1/llm/*}: the LLM dashboard, the inventory, the catalog's names and families, and
 * the exports (docs/http-api.md), adapters over the llm module's {@link DashboardService} and
 * {@link ExportService}. Dashboard and inventory need the storage: until the {@link
 * DashboardService} is bound they answer 503 {@code unavailable}; the catalog and the exports do
 * not.
 *
 * <p>Errors use the web module's one envelope and mapping ({@link LlmRoutes}): a bad parameter is
 * {@code bad_data} (400) naming it; a failing inventory query maps as {@code /api/v1/query} maps it
 * (a timeout is 503 {@code timeout}). A panel whose query fails is not an error: the panel carries
 * a {@code QUERY_ERROR} reason.
 *
 * <p>Threading: thread-safe; every request reads the suppliers afresh, so a reloaded {@code llm}
 * section applies to the next request.
 */
public final class LlmApi {
  static final String PREFIX = "/api/v1/llm";
  static final String YAML = "application/yaml; charset=utf-8";

  private final Supplier<DashboardService> dashboard;
  private final ExportService exports;
  private final Supplier<LlmConfig> config;
  private final LongSupplier nowMs;

  /**
   * @param dashboard the dashboard service, null while the storage is not ready
   * @param exports the exports and the catalog; null when not served (503)
   * @param config the {@code llm} section in force
   * @param nowMs the clock ({@code end} and {@code time} default to now)
   */
  public LlmApi(
      Supplier<DashboardService> dashboard,
      ExportService exports,
      Supplier<LlmConfig> config,
      LongSupplier nowMs) {
    this.dashboard = dashboard;
    this.exports = exports;
    this.config = config;
    this.nowMs = nowMs;
  }

  /** Adds the endpoints to {@code r}. */
  public void register(Router r) {
    r.add(PREFIX + "/dashboard", LlmRoutes.api(this::dashboard), "GET", "POST");
    r.add(PREFIX + "/dashboard/panel", LlmRoutes.api(this::panel), "GET", "POST");
    r.add(PREFIX + "/dashboard/panels", LlmRoutes.api(this::specs), "GET");
    r.add(PREFIX + "/dashboard/adapters", LlmRoutes.api(this::adapters), "GET");
    r.add(PREFIX + "/inventory", LlmRoutes.api(this::inventory), "GET");
    r.add(PREFIX + "/catalog/names", LlmRoutes.api(this::catalogNames), "GET");
    r.add(PREFIX + "/catalog/families", LlmRoutes.api(this::catalogFamilies), "GET");
    r.add(PREFIX + "/catalog/families/<name>", LlmRoutes.api(this::catalogFamily), "GET");
    r.add(PREFIX + "/export/grafana", LlmRoutes.api(this::grafana), "GET");
    r.add(PREFIX + "/export/rules", LlmRoutes.api(this::rules), "GET");
    r.add(PREFIX + "/export/prometheusrule", LlmRoutes.api(this::prometheusRule), "GET");
  }

  private void dashboard(Exchange ex) throws IOException, BodyTooLargeException {
    DashboardService s = service();
    DashboardParams p =
        DashboardParams.parse(LlmRoutes.source(ex), nowMs.getAsLong(), defaultQuantile());
    List<PanelResult> panels = p.request().panels().isEmpty() ? List.of() : s.render(p.request());
    ok(ex, g -> LlmJson.dashboard(g, p, quantiles(), panels));
  }

  /** The panel specs of a level, without running anything: what a client lays out first. */
  private void specs(Exchange ex) throws IOException, BodyTooLargeException {
    List<String> ids =
        DashboardParams.parse(LlmRoutes.source(ex), nowMs.getAsLong(), defaultQuantile())
            .request()
            .panels();
    ok(ex, g -> LlmJson.specs(g, ids, quantiles()));
  }

  /** One panel, unwrapped: the UI loads each panel with its own request. */
  private void panel(Exchange ex) throws IOException, BodyTooLargeException {
    DashboardService s = service();
    DashboardParams p =
        DashboardParams.parse(LlmRoutes.source(ex), nowMs.getAsLong(), defaultQuantile());
    Set<String> ids = new LinkedHashSet<>(p.request().panels());
    if (ex.params("id").isEmpty() && ex.params("panels").isEmpty()) {
      throw ApiException.invalidParam("id", "a panel id is required");
    }
    if (ids.size() != 1) {
      throw ApiException.invalidParam(
          "id", "exactly one panel is served here, got " + ids.size() + " (use /dashboard)");
    }
    PanelResult r = s.render(p.request()).get(0);
    ok(ex, g -> LlmJson.panelResult(g, r, p.request().stepMs(), p.summary()));
  }

  /** The LoRA adapters listed in the window, by model: the model filter's extra choices. */
  private void adapters(Exchange ex) throws IOException, BodyTooLargeException {
    DashboardService s = service();
    DashboardParams p =
        DashboardParams.parse(LlmRoutes.source(ex), nowMs.getAsLong(), defaultQuantile());
    List<LoraAdapter> adapters =
        s.adapters(p.request().filters(), p.request().startMs(), p.request().endMs());
    ok(ex, g -> LlmJson.adapters(g, adapters));
  }

  private void inventory(Exchange ex) throws IOException, BodyTooLargeException {
    DashboardService s = service();
    String t = ex.param("time");
    long time = t.isEmpty() ? nowMs.getAsLong() : DashboardParams.time("time", t);
    Inventory inv = s.inventory(time);
    ok(ex, g -> LlmJson.inventory(g, time, inv));
  }

  private void catalogNames(Exchange ex) {
    Catalog c = catalog();
    ok(ex, g -> LlmJson.catalogNames(g, c));
  }

  private void catalogFamilies(Exchange ex) {
    Catalog c = catalog();
    ok(ex, g -> CatalogJson.families(g, c));
  }

  /** One family by any spelling ({@code vllm:x}, {@code ray_vllm:x}); 404 when none has it. */
  private void catalogFamily(Exchange ex) {
    String name = ex.pathParam();
    Catalog.Identified id =
        catalog()
            .identifyFamily(name)
            .orElseThrow(
                () ->
                    new ApiException(
                        ErrorType.NOT_FOUND, "no family named \"" + name + "\" in the catalog"));
    ok(ex, g -> CatalogJson.family(g, id.engine(), id.match().entries()));
  }

  private void grafana(Exchange ex) throws IOException, BodyTooLargeException {
    // the cost panel's price variable defaults to llm.cost's default price
    String json = exports().grafana(engines(ex), list(ex, "spellings"), config.get().cost());
    ex.respond(200, Envelope.JSON, json.getBytes(StandardCharsets.UTF_8));
  }

  /** The default pack with the thresholds in force ({@code llm.alerts}). */
  private void rules(Exchange ex) throws IOException, BodyTooLargeException {
    String yaml = exports().rules(engines(ex), list(ex, "spellings"), config.get().alerts());
    ex.respond(200, YAML, yaml.getBytes(StandardCharsets.UTF_8));
  }

  private void prometheusRule(Exchange ex) throws IOException, BodyTooLargeException {
    String yaml =
        exports()
            .prometheusRule(
                ex.param("name"),
                ex.param("namespace"),
                engines(ex),
                list(ex, "spellings"),
                config.get().alerts());
    ex.respond(200, YAML, yaml.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code engines}, repeated or comma-separated; none: the service's default. */
  private static Set<String> engines(Exchange ex) throws IOException, BodyTooLargeException {
    return list(ex, "engines");
  }

  /** A parameter's values, repeated or comma-separated; none: the service's default. */
  private static Set<String> list(Exchange ex, String param)
      throws IOException, BodyTooLargeException {
    Set<String> out = new LinkedHashSet<>();
    for (String v : ex.params(param)) {
      for (String e : v.split(",")) {
        if (!e.isBlank()) {
          out.add(e.trim());
        }
      }
    }
    return out;
  }

  private DashboardService service() {
    return LlmRoutes.ready(dashboard);
  }

  private ExportService exports() {
    if (exports == null) {
      throw new ApiException(ErrorType.UNAVAILABLE, "the LLM exports are not served here");
    }
    return exports;
  }

  /** The catalog in use: the exports', else the dashboard's; unavailable when neither is served. */
  private Catalog catalog() {
    if (exports != null) {
      return exports.catalog();
    }
    return service().catalog();
  }

  /** {@code llm.quantiles} that a dashboard request accepts, in order. */
  private List<Double> quantiles() {
    List<Double> out = new ArrayList<>();
    for (double q : config.get().quantiles()) {
      if (q >= DashboardParams.MIN_QUANTILE && q <= DashboardParams.MAX_QUANTILE) {
        out.add(q);
      }
    }
    return out;
  }

  /** 0.95 when offered (the alert pack's default), else the highest quantile offered. */
  private double defaultQuantile() {
    List<Double> qs = quantiles();
    if (qs.isEmpty() || qs.contains(0.95)) {
      return 0.95;
    }
    return qs.stream().mapToDouble(Double::doubleValue).max().getAsDouble();
  }

  private static void ok(Exchange ex, Envelope.Body data) {
    Envelope.success(ex, data);
  }
}
