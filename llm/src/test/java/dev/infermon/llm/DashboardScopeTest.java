package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.RecordingBackend;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.storage.testing.CountingStorage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One dashboard render asks its queries in one scope, so the panels that select the same series
 * over the same range read its final samples once: the full dashboard of the simulated fleet over
 * 40 minutes reads about two thirds of the samples the same render reads through a backend that
 * shares nothing, and answers the same, series by series and value by value. Fails when the render
 * asks its queries outside a scope.
 */
class DashboardScopeTest {
  private static final Catalog CATALOG = Catalog.builtIn();

  @Test
  void aRenderReadsEachFinalSampleOnceAndAnswersTheSame() {
    SimulatedFleet fleet = new SimulatedFleet(FleetConfig.builder().build(), false);
    fleet.run(Duration.ofMinutes(45));
    CountingStorage counting = new CountingStorage(fleet.storage);
    long now = fleet.now();
    // as the TSDB's appendable window would be: the last 10 minutes may still change
    EmbeddedQueryBackend evaluator =
        new EmbeddedQueryBackend(counting, new Engine(EngineOptions.DEFAULTS), () -> now - 600_000);
    DashboardRequest r = DashboardRequest.of(Filters.NONE, now - 40 * 60_000, now);

    long s0 = counting.samples.sum();
    List<PanelResult> shared = new DashboardService(QueryStack.of(evaluator), CATALOG).render(r);
    long s1 = counting.samples.sum();
    List<PanelResult> apart =
        new DashboardService(
                QueryStack.of(new RecordingBackend(evaluator, new ArrayList<>())), CATALOG)
            .render(r);
    long s2 = counting.samples.sum();

    System.out.printf(
        "dashboard render: %d samples read in one scope, %d without%n", s1 - s0, s2 - s1);
    assertThat(shared).hasSameSizeAs(apart).isEqualTo(apart);
    assertThat(shared.stream().filter(p -> p.status() == PanelResult.Status.OK)).isNotEmpty();
    assertThat(s1 - s0).isLessThan((s2 - s1) * 7 / 10);
  }
}
