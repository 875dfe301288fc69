package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.promql.value.Vector;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * One model served by a vLLM pod whose first tokens all come at 0.3 s and an SGLang pod whose first
 * tokens all take 3 s: their TTFT buckets have different bounds, so the model's quantile is never
 * read from their buckets summed by {@code le} (which puts p95 in the merged {@code +Inf} bucket
 * and reads vLLM's largest bound, 2560 s, a latency no request had). It is each engine's own
 * quantile, the largest of them: SGLang's 3.9 s (2 + 0.95 x 2, the 2-4 s bucket), the value of the
 * default alert, in the model's dashboard panel and in the diagnosis alike.
 */
class MixedTtftTest {
  private static final int MINUTES = 20;

  private static SyntheticPods fleet() {
    SyntheticPods p = new SyntheticPods(MINUTES);
    p.vllm("vllm-0")
        .histogram("vllm:time_to_first_token_seconds", SyntheticPods.VLLM_TTFT, 0.3, 10);
    p.sglang("sglang-0")
        .histogram("sglang:time_to_first_token_seconds", SyntheticPods.SGLANG_TTFT, 3, 1);
    return p.write();
  }

  @Test
  void theModelsPanelShowsTheSlowerEnginesQuantile() {
    SyntheticPods p = fleet();
    List<PanelResult> panels =
        new DashboardService(p.backend, Catalog.builtIn())
            .render(
                new DashboardRequest(
                    Filters.NONE,
                    0.95,
                    p.end - 10 * 60_000,
                    p.end,
                    60_000,
                    "5m",
                    List.of("model.ttft")));
    List<Double> p95 =
        panels.get(0).queries().stream()
            .filter(q -> q.legend().endsWith(" q"))
            .flatMap(q -> q.series().stream())
            .map(s -> s.values()[s.values().length - 1])
            .collect(Collectors.toList());
    assertThat(p95).as(panels.get(0).queries().toString()).containsExactly(3.9);
  }

  /**
   * The diagnosis's reading of the model (what a model-level TTFT finding is judged on), compiled
   * as the diagnosis compiles it, is the alert's value; the pod's own reading names the pod.
   */
  @Test
  void theDiagnosisReadsTheModelsTtftAsTheAlertDoes() {
    SyntheticPods p = fleet();
    PackAlerts pack = new PackAlerts(p.storage);
    for (long t = SyntheticPods.START + 60_000; t <= p.end; t += 60_000) {
      pack.eval(t);
    }
    assertThat(pack.firing()).contains(new PackAlerts.Firing(AlertPack.TTFT, "ns", "m"));
    Catalog catalog = Catalog.builtIn();
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            Map.of(),
            0.95,
            Diagnoser.ALERT_RATE,
            Presence.of(new DashboardService(p.backend, catalog).inventory(p.end), catalog));
    String q =
        new PromqlCompiler(catalog)
            .compile(Diagnoser.modelMeasures(0.95).get("m_ttft"), Diagnoser.BY_MODEL, o)
            .orElseThrow();
    Vector v = (Vector) p.backend.instantQuery(q, p.end).value();
    assertThat(v.samples())
        .as(q)
        .singleElement()
        .satisfies(s -> assertThat(s.value()).isEqualTo(3.9));
    Diagnosis d =
        new DiagnosisService(p.backend, catalog)
            .diagnose(DiagnosisRequest.between(SyntheticPods.START, p.end, 15_000));
    assertThat(d.findings())
        .extracting(Finding::summary)
        .anyMatch(f -> f.startsWith("TTFT p95 is up to 3.9 s on pod ns/sglang-0"));
  }
}
