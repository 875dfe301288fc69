package dev.infermon.web.llm;

import dev.infermon.lint.LintOptions;
import dev.infermon.lint.LintService;
import dev.infermon.lint.report.JsonReport;
import dev.infermon.lint.run.LintInput;
import dev.infermon.llm.diagnosis.DiagnosisJson;
import dev.infermon.llm.diagnosis.DiagnosisRequest;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.slo.SloService;
import dev.infermon.llm.slo.SloStatus;
import dev.infermon.web.api.ApiException;
import dev.infermon.web.api.Envelope;
import dev.infermon.web.api.Params;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Router;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The LLM layer's lint, diagnosis and SLO endpoints (docs/http-api.md, "Lint, diagnosis and SLOs"),
 * adapters over lint's {@link LintService} and the llm module's {@link DiagnosisService} and {@link
 * SloService}: {@code /api/v1/llm/lint} checks expressions, a rule file or a dashboard against what
 * is stored (or the catalog alone); {@code /api/v1/llm/diagnosis} diagnoses a window; {@code
 * /api/v1/llm/slo} gives each SLO's attainment and error budget left. The services decide the
 * defaults (windows, step, thresholds); this class parses parameters and writes JSON, with the
 * shared error mapping ({@link LlmRoutes}).
 *
 * <p>Threading: thread-safe; every request reads the suppliers afresh.
 */
public final class LlmLintApi {
  private final Supplier<LintService> lint;
  private final Supplier<DiagnosisService> diagnosis;
  private final Supplier<SloService> slo;

  /**
   * @param lint the lint service: without a store until the storage is ready (catalog only), null
   *     when not served
   * @param diagnosis null while the storage is not ready
   * @param slo null while the storage is not ready
   */
  public LlmLintApi(
      Supplier<LintService> lint, Supplier<DiagnosisService> diagnosis, Supplier<SloService> slo) {
    this.lint = lint;
    this.diagnosis = diagnosis;
    this.slo = slo;
  }

  /** Adds the three routes. */
  public void register(Router router) {
    router.add("/api/v1/llm/lint", LlmRoutes.api(this::lint), "GET", "POST");
    router.add("/api/v1/llm/diagnosis", LlmRoutes.api(this::diagnosis), "GET", "POST");
    router.add("/api/v1/llm/slo", LlmRoutes.api(this::slo), "GET", "POST");
  }

  private void lint(Exchange ex) throws IOException, BodyTooLargeException {
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
    LintService s = LlmRoutes.ready(lint);
    LintService.Checker checker =
        ex.param("reference").equals("catalog") ? s.catalogOnly() : s.stored(OptionalLong.empty());
    Object report = JsonReport.tree(checker.lint(inputs, options));
    Envelope.success(ex, g -> LlmJson.tree(g, report));
  }

  private void diagnosis(Exchange ex) throws IOException, BodyTooLargeException {
    DiagnosisRequest r =
        new DiagnosisRequest(
            LlmRoutes.optional(ex, "start", Params::time),
            LlmRoutes.optional(ex, "end", Params::time),
            LlmRoutes.optional(ex, "window", Params::duration),
            LlmRoutes.optional(ex, "step", Params::duration));
    Object tree = DiagnosisJson.tree(LlmRoutes.ready(diagnosis).diagnose(r));
    Envelope.success(ex, g -> LlmJson.tree(g, tree));
  }

  private void slo(Exchange ex) throws IOException, BodyTooLargeException {
    List<Object> out = new ArrayList<>();
    OptionalLong time = LlmRoutes.optional(ex, "time", Params::time);
    for (SloStatus.State s : LlmRoutes.ready(slo).status(time)) {
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
    Map<String, Object> data = Map.of("slos", out);
    Envelope.success(ex, g -> LlmJson.tree(g, data));
  }
}
