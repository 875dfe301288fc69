package dev.infermon.web.api;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.infermon.lint.LintOptions;
import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.diagnosis.Diagnoser;
import dev.infermon.lint.diagnosis.DiagnosisJson;
import dev.infermon.lint.diagnosis.Thresholds;
import dev.infermon.lint.report.JsonReport;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.lint.slo.BurnWindow;
import dev.infermon.lint.slo.SloStatus;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.StoredInventory;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.QueryException;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Router;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The LLM layer's lint, diagnosis and SLO endpoints (docs/http-api.md, "Lint, diagnosis and SLOs"),
 * in Prometheus's envelope: {@code /api/v1/llm/lint} checks expressions, a rule file or a dashboard
 * against what is stored; {@code /api/v1/llm/diagnosis} diagnoses a window; {@code /api/v1/llm/slo}
 * gives each SLO's attainment and error budget left. Everything goes through the query backend, so
 * the answers are the same against a remote store.
 *
 * <p>Threading: thread-safe; each request builds its own state.
 */
public final class LlmLintApi {
  private static final long INVENTORY_WINDOW_MS = Duration.ofHours(1).toMillis();

  private final Supplier<QueryBackend> queries;
  private final LongSupplier clock;
  private final Catalog catalog = Catalog.builtIn();

  public LlmLintApi(Supplier<QueryBackend> queries, LongSupplier clock) {
    this.queries = queries;
    this.clock = clock;
  }

  /** Adds the three routes. */
  public void register(Router router) {
    router.add("/api/v1/llm/lint", ex -> guard(ex, this::lint), "GET", "POST");
    router.add("/api/v1/llm/diagnosis", ex -> guard(ex, this::diagnosis), "GET", "POST");
    router.add("/api/v1/llm/slo", ex -> guard(ex, this::slo), "GET", "POST");
  }

  private interface Handler {
    Object handle(Exchange ex) throws IOException, BodyTooLargeException;
  }

  private static void guard(Exchange ex, Handler h) throws IOException, BodyTooLargeException {
    Object data;
    try {
      data = h.handle(ex);
    } catch (ApiException e) {
      Envelope.error(ex, e);
      return;
    } catch (QueryException | IllegalArgumentException e) {
      Envelope.error(ex, new ApiException(ErrorType.BAD_DATA, e.getMessage()));
      return;
    }
    Envelope.success(ex, g -> tree(g, data));
  }

  private QueryBackend backend() {
    QueryBackend b = queries.get();
    if (b == null) {
      throw new ApiException(ErrorType.UNAVAILABLE, "the storage is not ready yet");
    }
    return b;
  }

  private Object lint(Exchange ex) throws IOException, BodyTooLargeException {
    List<LintInput> inputs = new ArrayList<>();
    List<String> exprs = ex.params("expr");
    for (int i = 0; i < exprs.size(); i++) {
      inputs.add(
          LintInput.expr(exprs.size() == 1 ? "<expr>" : "<expr " + (i + 1) + ">", exprs.get(i)));
    }
    String name = ex.param("name");
    String rules = ex.param("rules");
    if (!rules.isEmpty()) {
      inputs.add(new LintInput(name.isEmpty() ? "rules.yml" : name, LintInput.Kind.RULES, rules));
    }
    String dashboard = ex.param("dashboard");
    if (!dashboard.isEmpty()) {
      inputs.add(
          new LintInput(
              name.isEmpty() ? "dashboard.json" : name, LintInput.Kind.DASHBOARD, dashboard));
    }
    if (inputs.isEmpty()) {
      throw ApiException.invalidParam("expr", "give expr, rules or dashboard");
    }
    LintOptions options = LintOptions.DEFAULT;
    String interval = ex.param("scrape_interval");
    if (!interval.isEmpty()) {
      options = options.withScrapeInterval(Duration.ofMillis(Params.duration(interval)));
    }
    Reference ref;
    if (ex.param("reference").equals("catalog")) {
      ref = Reference.catalogOnly(catalog);
    } else {
      long now = clock.getAsLong();
      ref =
          Reference.of(
              catalog,
              new StoredInventory(catalog).read(backend(), now, INVENTORY_WINDOW_MS),
              Reference.Mode.STORED);
    }
    LintResult r = new LintRun(ref, options).run(inputs);
    return JsonReport.tree(r);
  }

  private Object diagnosis(Exchange ex) throws IOException, BodyTooLargeException {
    long end = ex.param("end").isEmpty() ? clock.getAsLong() : Params.time(ex.param("end"));
    long start;
    if (!ex.param("start").isEmpty()) {
      start = Params.time(ex.param("start"));
    } else {
      String window = ex.param("window").isEmpty() ? "30m" : ex.param("window");
      start = end - Params.duration(window);
    }
    if (end <= start) {
      throw ApiException.invalidParam("end", "end timestamp must not be before start time");
    }
    long step =
        ex.param("step").isEmpty()
            ? Math.max(15_000L, (end - start) / 120 / 1000 * 1000)
            : Params.duration(ex.param("step"));
    return DiagnosisJson.tree(
        new Diagnoser(catalog, backend(), Thresholds.DEFAULT).diagnose(start, end, step));
  }

  private Object slo(Exchange ex) throws IOException, BodyTooLargeException {
    long time = ex.param("time").isEmpty() ? clock.getAsLong() : Params.time(ex.param("time"));
    List<Object> out = new ArrayList<>();
    for (SloStatus.State s : SloStatus.read(backend(), time, BurnWindow.DEFAULT)) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("slo", s.slo());
      m.put("model", s.model());
      m.put("sli", s.sli());
      m.put("objective", s.objective());
      m.put("window", s.window());
      m.put("thresholdSeconds", s.thresholdSeconds());
      m.put("attainment", s.attainment());
      m.put("budgetRemaining", s.budgetRemaining());
      m.put("burnRates", s.burnRates());
      out.add(m);
    }
    return Map.of("slos", out);
  }

  /** Writes a tree of maps, lists, strings, numbers and booleans; NaN and ±Inf as strings. */
  static void tree(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof Map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        tree(g, e.getValue());
      }
      g.writeEndObject();
    } else if (v instanceof List) {
      g.writeStartArray();
      for (Object o : (List<?>) v) {
        tree(g, o);
      }
      g.writeEndArray();
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isFinite(d)) {
        g.writeNumber(d);
      } else {
        g.writeString(GoFloat.format(d));
      }
    } else if (v instanceof Number) {
      g.writeNumber(((Number) v).longValue());
    } else if (v instanceof Boolean) {
      g.writeBoolean((Boolean) v);
    } else {
      g.writeString(String.valueOf(v));
    }
  }
}
