package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A request's {@code top} over a simulated fleet of more pods than it: each query of a per-pod or
 * per-GPU panel keeps the {@code top} series that peaked highest (dipped lowest for a {@code rank:
 * low} panel) with their data unchanged, says how many there were, and the panel's status and
 * reasons are those of the whole fleet; a model-level panel is never cut.
 */
class TopPodsTest {
  private static final int TOP = 3;
  private static SimulatedFleet fleet;
  private static DashboardService service;
  private static long start;
  private static long end;

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .seed(5)
            .vllmPods(6)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .build();
    fleet = new SimulatedFleet(config, false);
    fleet.run(Duration.ofMinutes(12));
    service = new DashboardService(fleet.backend, Catalog.builtIn());
    long step = 15_000;
    end = fleet.now() - fleet.now() % step;
    start = end - 10 * 60_000;
  }

  private static PanelResult render(String panel, boolean top) {
    DashboardRequest r =
        new DashboardRequest(Filters.NONE, 0.95, start, end, 15_000, "5m", List.of(panel));
    return service.render(top ? r.withTop(TOP) : r).get(0);
  }

  private static double peak(PanelResult.SeriesData s, Panel.Rank rank) {
    double best = rank == Panel.Rank.HIGH ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    for (double v : s.values()) {
      if (!Double.isNaN(v)) {
        best = rank == Panel.Rank.HIGH ? Math.max(best, v) : Math.min(best, v);
      }
    }
    return best;
  }

  @ParameterizedTest(name = "{0}: the {1} worst of every query, worst first")
  @CsvSource({"pod.kv_usage, HIGH", "pod.prefix_cache_hit_rate, LOW", "gpu.utilization, HIGH"})
  void aPerPodPanelKeepsTheWorstSeriesAndSaysHowManyThereWere(String panel, Panel.Rank rank) {
    Set<String> pods = new TreeSet<>();
    for (PodInfo p : fleet.fleet.inventory()) {
      if (p.backend() != Backend.DCGM) {
        pods.add(p.name());
      }
    }
    assertThat(pods).as("more pods than top").hasSizeGreaterThan(TOP);
    PanelResult all = render(panel, false);
    PanelResult cut = render(panel, true);
    assertThat(cut.panel().rank()).isEqualTo(rank);
    assertThat(cut.status()).isEqualTo(all.status());
    assertThat(cut.reasons()).isEqualTo(all.reasons());
    for (int qi = 0; qi < all.queries().size(); qi++) {
      PanelResult.QueryData every = all.queries().get(qi);
      PanelResult.QueryData kept = cut.queries().get(qi);
      assertThat(every.series()).as(every.promql()).hasSizeGreaterThan(TOP);
      assertThat(every.total()).isEqualTo(every.series().size());
      assertThat(kept.total()).isEqualTo(every.series().size());
      assertThat(kept.series()).hasSize(TOP);
      assertThat(every.series()).containsAll(kept.series()); // the data themselves, unchanged
      List<Double> keptPeaks = new ArrayList<>();
      kept.series().forEach(s -> keptPeaks.add(peak(s, rank)));
      assertThat(keptPeaks)
          .as("worst first")
          .isSortedAccordingTo(
              rank == Panel.Rank.HIGH
                  ? java.util.Comparator.<Double>reverseOrder()
                  : java.util.Comparator.<Double>naturalOrder());
      double lastKept = keptPeaks.get(TOP - 1);
      for (PanelResult.SeriesData s : every.series()) {
        if (!kept.series().contains(s)) {
          double p = peak(s, rank);
          if (rank == Panel.Rank.HIGH) {
            assertThat(p)
                .as("a pod left out peaked no higher: %s", s)
                .isLessThanOrEqualTo(lastKept);
          } else {
            assertThat(p)
                .as("a pod left out dipped no lower: %s", s)
                .isGreaterThanOrEqualTo(lastKept);
          }
        }
      }
    }
  }

  @ParameterizedTest(name = "{0} is never cut")
  @CsvSource({"model.qps", "model.success_rate"})
  void aModelLevelPanelIsNeverCut(String panel) {
    DashboardRequest r =
        new DashboardRequest(Filters.NONE, 0.95, start, end, 15_000, "5m", List.of(panel));
    PanelResult all = service.render(r).get(0);
    PanelResult cut = service.render(r.withTop(1)).get(0);
    assertThat(all.queries().get(0).series()).as("more models than top").hasSizeGreaterThan(1);
    assertThat(cut.queries()).isEqualTo(all.queries());
    assertThat(cut.queries()).allMatch(q -> !q.cut() && q.total() == q.series().size());
  }
}
