package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.VllmPod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A heatmap column is the count of one step: over a window, the columns of the generation-length
 * heatmap add up to what the simulator's own histograms counted in it (the {@code +Inf} bucket is
 * the {@code _count}), at every step the UI uses, including a step of one scrape interval (where
 * {@code increase(x[step])} has one sample and answers nothing) and steps that are no multiple of
 * it. Nothing is counted twice nor skipped, and no step is empty while requests finish.
 */
class HeatmapStepTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String PANEL = "model.generation_length_heatmap";
  private static SimulatedFleet fleet;
  private static DashboardService service;

  /** Scrape time → requests the fleet's vLLM engines counted in their generation histograms. */
  private static final TreeMap<Long, Long> observed = new TreeMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .seed(7)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .build();
    fleet = new SimulatedFleet(config, false);
    fleet.run(
        Duration.ofMinutes(25),
        snap -> {
          long n = 0;
          for (InferencePod p : fleet.fleet.pods()) {
            if (p instanceof VllmPod) {
              for (int i = 0; i < p.engines().size(); i++) {
                n += ((VllmPod) p).metrics(i).requestGenerationTokens().count();
              }
            }
          }
          observed.put(snap.timeMillis(), n);
        });
    service = new DashboardService(fleet.backend, CATALOG);
  }

  /** The simulator's count as a query at {@code t} sees it: the last scrape at or before. */
  private static long observedAt(long t) {
    Map.Entry<Long, Long> e = observed.floorEntry(t);
    return e == null ? 0 : e.getValue();
  }

  @ParameterizedTest(name = "step {0} s over {1} min: columns sum to the histogram's count")
  @CsvSource({"15, 15", "30, 15", "60, 20", "45, 20", "90, 18"})
  void columnsSumToTheCountObservedInTheWindow(int stepSeconds, int minutes) {
    long step = stepSeconds * 1000L;
    long end = fleet.now() - fleet.now() % step;
    // a whole number of steps, as the UI aligns its windows: the last point is the window's end
    long start = end - (minutes * 60_000L / step) * step;
    PanelResult r =
        service
            .render(
                new DashboardRequest(Filters.NONE, 0.95, start, end, step, "5m", List.of(PANEL)))
            .get(0);
    PanelResult.SeriesData inf = null;
    for (PanelResult.SeriesData s : r.queries().get(0).series()) {
      if (s.labels().get("le").equals("+Inf")) {
        inf = s;
      }
    }
    assertThat(inf).as(r.queries().get(0).promql()).isNotNull();
    long columns = (end - start) / step + 1;
    assertThat(inf.timestamps()).as("one column per step, none empty").hasSize((int) columns);
    double sum = 0;
    for (double v : inf.values()) {
      assertThat(v).isNotNegative();
      sum += v;
    }
    // the first column counts the step that ends at start
    long want = observedAt(end) - observedAt(start - step);
    assertThat(want).as("requests finished in the window").isPositive();
    assertThat(sum).as(r.queries().get(0).promql()).isEqualTo((double) want);
  }
}
