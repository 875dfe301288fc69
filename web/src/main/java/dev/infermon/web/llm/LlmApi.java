package dev.infermon.web.llm;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.llm.export.AlertRule;
import dev.infermon.llm.export.GrafanaDashboard;
import dev.infermon.llm.export.RuleFiles;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.web.api.ApiException;
import dev.infermon.web.api.ErrorType;
import dev.infermon.web.api.QueryErrors;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Route;
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
 * {@code /api/v1/llm/*}: the LLM dashboard, the inventory, the catalog's names and the exports
 * (docs/http-api.md). Dashboard and inventory need the storage: until the {@link DashboardService}
 * is bound they answer 503 as the rest of the API does; the catalog and the exports do not.
 *
 * <p>Errors use Prometheus's envelope: a bad parameter is {@code bad_data} (400) naming it; a
 * failing inventory query maps as {@code /api/v1/query} maps it. A panel whose query fails is not
 * an error: the panel carries a {@code QUERY_ERROR} reason.
 *
 * <p>Threading: thread-safe; every request reads the suppliers afresh, so a reloaded {@code llm}
 * section applies to the next request.
 */
public final class LlmApi {
  static final String PREFIX = "/api/v1/llm";
  static final String YAML = "application/yaml; charset=utf-8";

  private final Supplier<DashboardService> dashboard;
  private final Supplier<LlmConfig> config;
  private final LongSupplier nowMs;
  private volatile Catalog builtIn;

  /**
   * @param dashboard the dashboard service, null while the storage is not ready
   * @param config the {@code llm} section in force
   * @param nowMs the clock ({@code end} and {@code time} default to now)
   */
  public LlmApi(
      Supplier<DashboardService> dashboard, Supplier<LlmConfig> config, LongSupplier nowMs) {
    this.dashboard = dashboard;
    this.config = config;
    this.nowMs = nowMs;
  }

  /** Adds the endpoints to {@code r}. */
  public void register(Router r) {
    r.add(PREFIX + "/dashboard", api(this::dashboard), "GET", "POST");
    r.add(PREFIX + "/dashboard/panel", api(this::panel), "GET", "POST");
    r.add(PREFIX + "/dashboard/panels", api(this::specs), "GET");
    r.add(PREFIX + "/inventory", api(this::inventory), "GET");
    r.add(PREFIX + "/catalog/names", api(this::catalogNames), "GET");
    r.add(PREFIX + "/export/grafana", api(this::grafana), "GET");
    r.add(PREFIX + "/export/rules", api(this::rules), "GET");
    r.add(PREFIX + "/export/prometheusrule", api(this::prometheusRule), "GET");
  }

  private void dashboard(Exchange ex) throws IOException, BodyTooLargeException {
    DashboardService s = service();
    DashboardParams p = DashboardParams.parse(source(ex), nowMs.getAsLong(), defaultQuantile());
    List<PanelResult> panels = p.request().panels().isEmpty() ? List.of() : s.render(p.request());
    ok(ex, g -> LlmJson.dashboard(g, p, quantiles(), panels));
  }

  /** The panel specs of a level, without running anything: what a client lays out first. */
  private void specs(Exchange ex) throws IOException, BodyTooLargeException {
    List<String> ids =
        DashboardParams.parse(source(ex), nowMs.getAsLong(), defaultQuantile()).request().panels();
    ok(ex, g -> LlmJson.specs(g, ids, quantiles()));
  }

  /** One panel, unwrapped: the UI loads each panel with its own request. */
  private void panel(Exchange ex) throws IOException, BodyTooLargeException {
    DashboardService s = service();
    DashboardParams p = DashboardParams.parse(source(ex), nowMs.getAsLong(), defaultQuantile());
    Set<String> ids = new LinkedHashSet<>(p.request().panels());
    if (ex.params("id").isEmpty() && ex.params("panels").isEmpty()) {
      throw ApiException.invalidParam("id", "a panel id is required");
    }
    if (ids.size() != 1) {
      throw ApiException.invalidParam(
          "id", "exactly one panel is served here, got " + ids.size() + " (use /dashboard)");
    }
    PanelResult r = s.render(p.request()).get(0);
    ok(ex, g -> LlmJson.panelResult(g, r, p.request().stepMs()));
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

  private void grafana(Exchange ex) throws IOException, BodyTooLargeException {
    Set<String> engines = engines(ex);
    String json = export(() -> GrafanaDashboard.json(catalog(), engines));
    ex.respond(200, LlmJson.JSON, json.getBytes(StandardCharsets.UTF_8));
  }

  private void rules(Exchange ex) throws IOException, BodyTooLargeException {
    List<AlertRule> rules = alertRules(ex);
    String yaml = RuleFiles.prometheusRuleFile(AlertPack.GROUP, rules);
    ex.respond(200, YAML, yaml.getBytes(StandardCharsets.UTF_8));
  }

  private void prometheusRule(Exchange ex) throws IOException, BodyTooLargeException {
    List<AlertRule> rules = alertRules(ex);
    String name = ex.param("name").isEmpty() ? "infermon-llm" : ex.param("name");
    String namespace = ex.param("namespace");
    String yaml =
        export(
            () -> {
              try {
                return RuleFiles.prometheusRule(name, namespace, AlertPack.GROUP, rules);
              } catch (IllegalArgumentException e) {
                throw ApiException.invalidParam("name", e.getMessage());
              }
            });
    ex.respond(200, YAML, yaml.getBytes(StandardCharsets.UTF_8));
  }

  /** The default pack with the thresholds in force ({@code llm.alerts}). */
  private List<AlertRule> alertRules(Exchange ex) throws IOException, BodyTooLargeException {
    Set<String> engines = engines(ex);
    return export(() -> AlertPack.rules(catalog(), engines, config.get().alerts()));
  }

  private static <T> T export(Supplier<T> s) {
    try {
      return s.get();
    } catch (ApiException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam("engines", e.getMessage());
    }
  }

  /** {@code engines} (repeated or comma-separated), by default every engine of the catalog. */
  private Set<String> engines(Exchange ex) throws IOException, BodyTooLargeException {
    Set<String> out = new LinkedHashSet<>();
    for (String v : ex.params("engines")) {
      for (String e : v.split(",")) {
        if (!e.isBlank()) {
          out.add(e.trim());
        }
      }
    }
    if (out.isEmpty()) {
      catalog().engines().forEach(e -> out.add(e.engine()));
    }
    return out;
  }

  private DashboardService service() {
    DashboardService s = dashboard.get();
    if (s == null) {
      throw new NotReady();
    }
    return s;
  }

  /** The catalog in use, or the built-in one while the storage is not ready. */
  private Catalog catalog() {
    DashboardService s = dashboard.get();
    if (s != null) {
      return s.catalog();
    }
    Catalog c = builtIn;
    if (c == null) {
      c = Catalog.builtIn();
      builtIn = c;
    }
    return c;
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

  private static DashboardParams.Source source(Exchange ex) {
    return name -> {
      try {
        return ex.params(name);
      } catch (IOException | BodyTooLargeException e) {
        throw new BodyUnreadable(e);
      }
    };
  }

  private static void ok(Exchange ex, LlmJson.Body data) {
    ex.respond(200, LlmJson.JSON, LlmJson.success(data));
  }

  private Route api(Route handler) {
    return ex -> {
      try {
        handler.handle(ex);
      } catch (NotReady e) {
        // as the Prometheus endpoints during WAL replay: plain text
        ex.respondText(503, "Service Unavailable");
      } catch (ApiException e) {
        respondError(ex, e);
      } catch (BodyUnreadable e) {
        if (e.getCause() instanceof BodyTooLargeException) {
          ex.respond(
              413,
              LlmJson.JSON,
              LlmJson.error(new ApiException(ErrorType.BAD_DATA, e.getCause().getMessage())));
        } else {
          throw (IOException) e.getCause();
        }
      } catch (BodyTooLargeException e) {
        ex.respond(
            413, LlmJson.JSON, LlmJson.error(new ApiException(ErrorType.BAD_DATA, e.getMessage())));
      } catch (RuntimeException e) {
        respondError(ex, translate(e));
      }
    };
  }

  private static void respondError(Exchange ex, ApiException e) {
    ex.respond(e.type().httpStatus(), LlmJson.JSON, LlmJson.error(e));
  }

  /**
   * The query backend's named errors as {@code /api/v1/query} reports them; here a parameter the
   * dashboard code rejects ({@link IllegalArgumentException}) is the caller's bad data too.
   */
  static ApiException translate(RuntimeException e) {
    if (e instanceof IllegalArgumentException) {
      return new ApiException(ErrorType.BAD_DATA, e.getMessage());
    }
    return QueryErrors.toApi(e);
  }

  /** The storage is not ready yet (no dashboard service bound). */
  private static final class NotReady extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotReady() {
      super("the storage is not ready", null, false, false);
    }
  }

  /** Carries a body read failure out of a parameter lookup. */
  private static final class BodyUnreadable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BodyUnreadable(Exception cause) {
      super(cause);
    }
  }
}
