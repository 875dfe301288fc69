package dev.infermon.web.llm;

import dev.infermon.llm.efficiency.EfficiencyJson;
import dev.infermon.llm.efficiency.EfficiencyRequest;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.web.api.Envelope;
import dev.infermon.web.api.Params;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Router;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * {@code /api/v1/llm/efficiency} (docs/http-api.md#efficiency): tokens per GPU-second and per
 * joule, idle GPU time and cost per million tokens per model, workload and pod over a window, an
 * adapter over the llm module's {@link EfficiencyService}, which decides the defaults (window,
 * step) and every figure; this class parses parameters and writes the JSON of {@link
 * EfficiencyJson}, with the shared error mapping ({@link LlmRoutes}).
 *
 * <p>Threading: thread-safe; every request reads the supplier afresh.
 */
public final class LlmEfficiencyApi {
  private final Supplier<EfficiencyService> efficiency;

  /**
   * @param efficiency null while the storage is not ready
   */
  public LlmEfficiencyApi(Supplier<EfficiencyService> efficiency) {
    this.efficiency = efficiency;
  }

  /** Adds the route. */
  public void register(Router router) {
    router.add("/api/v1/llm/efficiency", LlmRoutes.api(this::efficiency), "GET", "POST");
  }

  private void efficiency(Exchange ex) throws IOException, BodyTooLargeException {
    EfficiencyRequest r =
        new EfficiencyRequest(
            LlmRoutes.optional(ex, "start", Params::time),
            LlmRoutes.optional(ex, "end", Params::time),
            LlmRoutes.optional(ex, "step", Params::duration),
            ex.param("model"),
            ex.param("workload"));
    Object tree = EfficiencyJson.tree(LlmRoutes.ready(efficiency).compute(r));
    Envelope.success(ex, g -> LlmJson.tree(g, tree));
  }
}
