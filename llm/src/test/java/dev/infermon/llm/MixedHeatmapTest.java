package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fleet of vLLM and SGLang pods: their token-length histograms have different bounds (vLLM's 1,
 * 2, 5, 10, ... up to the model's length; SGLang's own rule), so the fleet's heatmap never sums
 * their buckets by {@code le}, which would count one engine's requests in the other's rows. It is
 * each engine's own heatmap, side by side: under the fleet's view, the series of one engine (marked
 * by {@code infermon_engine}) are exactly that engine's heatmap filtered by {@code backend}, and
 * its columns add up to its own count (both of SGLang's spellings).
 */
class MixedHeatmapTest {
  private static final String ENGINE = "infermon_engine";
  private static SimulatedFleet fleet;
  private static DashboardService service;

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder().seed(7).sglangGatewayPods(0).prefillDecode(false).build();
    fleet = new SimulatedFleet(config, false);
    fleet.run(Duration.ofMinutes(15), snap -> {});
    service = new DashboardService(fleet.backend, Catalog.builtIn());
  }

  private static List<PanelResult.SeriesData> series(String panel, Filters filters) {
    long step = 60_000;
    long end = fleet.now() - fleet.now() % step;
    PanelResult r =
        service
            .render(
                new DashboardRequest(
                    filters, 0.95, end - 10 * step, end, step, "5m", List.of(panel)))
            .get(0);
    assertThat(r.queries()).hasSize(1);
    return r.queries().get(0).series();
  }

  private static double count(String q, long t) {
    Vector v = (Vector) fleet.backend.instantQuery(q, t).value();
    return v.samples().get(0).value();
  }

  /** Each series' values by its labels but {@code infermon_engine}. */
  private static Map<Map<String, String>, List<Double>> byLabels(
      List<PanelResult.SeriesData> series) {
    Map<Map<String, String>, List<Double>> m = new HashMap<>();
    for (PanelResult.SeriesData s : series) {
      Map<String, String> l = new TreeMap<>(s.labels());
      l.remove(ENGINE);
      m.put(l, Arrays.stream(s.values()).boxed().collect(Collectors.toList()));
    }
    return m;
  }

  @ParameterizedTest(name = "{0}: the fleet's heatmap is each engine's own")
  @ValueSource(strings = {"model.generation_length_heatmap", "model.prompt_length_heatmap"})
  void theFleetsHeatmapIsEachEnginesOwnSideBySide(String panel) {
    List<PanelResult.SeriesData> mixed = series(panel, Filters.NONE);
    Map<String, List<PanelResult.SeriesData>> byEngine =
        mixed.stream().collect(Collectors.groupingBy(s -> s.labels().getOrDefault(ENGINE, "")));
    assertThat(byEngine.keySet())
        .as("every series marked by its engine")
        .containsOnly("vllm", "sglang");
    Map<String, Set<String>> bounds = new HashMap<>();
    byEngine.forEach(
        (engine, own) -> {
          List<PanelResult.SeriesData> alone = series(panel, Filters.of(Map.of("backend", engine)));
          assertThat(alone).as(engine + " alone").isNotEmpty();
          // the filter is a label matcher: the query may still name both engines' families
          assertThat(alone)
              .allSatisfy(
                  s -> assertThat(s.labels().getOrDefault(ENGINE, engine)).isEqualTo(engine));
          assertThat(byLabels(own)).as(engine).isEqualTo(byLabels(alone));
          bounds.put(
              engine,
              own.stream()
                  .map(s -> s.labels().get("le"))
                  .collect(Collectors.toCollection(TreeSet::new)));
        });
    // each engine's columns add up to its own count over the window (the step before included)
    long step = 60_000;
    long end = fleet.now() - fleet.now() % step;
    Map<String, String> counts =
        Map.of(
            "vllm", "sum({__name__=~\"vllm:request_generation_tokens_count\"})",
            "sglang", "sum({__name__=~\"sglang[:_]generation_tokens_histogram_count\"})");
    if (panel.contains("generation")) {
      byEngine.forEach(
          (engine, own) -> {
            double total =
                own.stream()
                    .filter(s -> s.labels().get("le").equals("+Inf"))
                    .flatMapToDouble(s -> Arrays.stream(s.values()))
                    .sum();
            double want =
                count(counts.get(engine), end) - count(counts.get(engine), end - 11 * step);
            assertThat(total).as(engine).isEqualTo(want);
          });
    }
    // what a sum by le would have mixed: the engines' bounds are not the same
    assertThat(bounds.get("vllm")).isNotEqualTo(bounds.get("sglang"));
  }
}
