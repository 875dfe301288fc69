package dev.infermon.web.llm;

import dev.infermon.llm.report.ReportJson;
import dev.infermon.llm.report.ReportRequest;
import dev.infermon.llm.report.ReportService;
import dev.infermon.web.api.ApiException;
import dev.infermon.web.api.Envelope;
import dev.infermon.web.api.Params;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Router;
import java.io.IOException;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * {@code GET /api/v1/llm/report?window=&end=&model=&worst=} (docs/http-api.md#report): per model
 * traffic, SLO attainment, worst periods with their diagnosis, headroom and cost over a window, an
 * adapter over the llm module's {@link ReportService}, which decides the defaults. A bad parameter,
 * and a window without samples, is 400 {@code bad_data} naming it; 503 while the storage is not
 * ready. Thread-safe.
 */
public final class LlmReportApi {
  private final Supplier<ReportService> report;

  /**
   * @param report null while the storage is not ready
   */
  public LlmReportApi(Supplier<ReportService> report) {
    this.report = report;
  }

  /** Adds the route. */
  public void register(Router router) {
    router.add("/api/v1/llm/report", LlmRoutes.api(this::report), "GET");
  }

  private void report(Exchange ex) throws IOException, BodyTooLargeException {
    String worst = ex.param("worst");
    OptionalInt n = OptionalInt.empty();
    if (!worst.isEmpty()) {
      try {
        n = OptionalInt.of(Integer.parseInt(worst));
      } catch (NumberFormatException e) {
        throw ApiException.invalidParam("worst", "not a whole number: \"" + worst + "\"");
      }
    }
    ReportRequest r =
        new ReportRequest(
            optional(ex, "end", Params::time),
            optional(ex, "window", Params::duration),
            ex.param("model"),
            n);
    Object tree = ReportJson.tree(LlmRoutes.ready(report).report(r));
    Envelope.success(ex, g -> LlmJson.tree(g, tree));
  }

  private static OptionalLong optional(Exchange ex, String name, ToLongFunction<String> parse)
      throws IOException, BodyTooLargeException {
    String v = ex.param(name);
    if (v.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(parse.applyAsLong(v));
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam(name, e.getMessage());
    }
  }
}
