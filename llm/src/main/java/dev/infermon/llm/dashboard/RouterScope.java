package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.Router;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.Matrix;
import java.util.Set;
import java.util.TreeSet;

/**
 * The routers scraped that front none of the pods a filtered view keeps: in a mixed fleet llm-d's
 * EPP routes to the vLLM pods and SGLang's model gateway to the SGLang pods, so under a backend
 * filter on TGI neither is in front, and what one of them does not expose says nothing of that
 * view. A router fronts the view while one of its per-pod families names a pod in scope over the
 * range; a router without such a family (NVIDIA Dynamo's frontend) while it has a series of a model
 * those pods serve; a router whose query fails is taken to front it. A panel's matchers narrow the
 * scope the same way: no simulated router but llm-d's EPP fronts a prefill/decode pair, so the
 * prefill/decode view's router TTFT names no other router's lack. Stateless.
 */
final class RouterScope {
  private RouterScope() {}

  /**
   * The backend names ({@code smg}) of the routers present that front no pod in scope: the pods the
   * filters and a panel's {@code match} keep (the prefill/decode view's pairs).
   */
  static Set<String> notFronting(
      PromqlCompiler compiler,
      QueryBackend backend,
      DashboardRequest r,
      java.util.Map<String, String> match,
      Presence presence) {
    Set<String> out = new TreeSet<>();
    if (r.filters().values().isEmpty() && match.isEmpty()) {
      return out;
    }
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            r.filters(),
            match,
            r.quantile(),
            r.window(),
            presence,
            PromqlCompiler.duration(r.stepMs()));
    for (Router router : compiler.routersPresent(presence)) {
      String q = compiler.fronted(router, o);
      if (q == null) {
        // a router whose families are per model only fronts the pods of the models it serves
        q = compiler.frontedByModel(router, o);
      }
      if (q == null) {
        continue;
      }
      try {
        var res = backend.rangeQueryAsync(q, r.startMs(), r.endMs(), r.stepMs()).get();
        if (res.value() instanceof Matrix && ((Matrix) res.value()).series().isEmpty()) {
          out.add(router.backend());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return out;
      } catch (java.util.concurrent.ExecutionException | RuntimeException e) {
        // the panel's own query reports an error; the router is kept
      }
    }
    return out;
  }
}
