package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.RecordingBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.simulator.FleetConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What makes the dashboard fast changes no answer: every panel rendered by the service (inventory
 * shared, distinct queries run once each and in parallel, final steps from the results cache) is
 * the panel the service renders without the cache, and every query's series are what the backend
 * answers to that query alone, on this thread — over several refreshes while the fleet keeps
 * producing samples for the recent steps.
 */
class DashboardSpeedTest {
  private static final Catalog CATALOG = Catalog.builtIn();

  @Test
  void fastAnswersEqualSequentialUncachedEvaluation() {
    SimulatedFleet f = new SimulatedFleet(FleetConfig.builder().build(), true);
    f.run(Duration.ofMinutes(80));
    List<long[]> ranges = new ArrayList<>();
    // the TSDB's appendable window: nothing older than an hour before the newest sample is added
    DashboardService fast =
        new DashboardService(
            QueryStack.of(new RecordingBackend(f.backend, ranges, () -> f.now() - 3_600_000)),
            CATALOG);
    long step = 60_000;
    long end = (f.now() / step + 2) * step; // the UI rounds the end up: it lies in the future
    long start = end - Duration.ofMinutes(75).toMillis();
    Set<String> changed = new HashSet<>();
    Map<String, PanelResult> previous = new LinkedHashMap<>();
    int tails = 0;
    for (int round = 0; round < 3; round++) {
      DashboardRequest r =
          new DashboardRequest(Filters.NONE, 0.9, start, end, step, "5m", List.of());
      int before = ranges.size();
      List<PanelResult> got = fast.render(r);
      synchronized (ranges) {
        for (long[] q : ranges.subList(before, ranges.size())) {
          if (q[0] > start) {
            tails++;
          }
        }
      }
      // a fresh service: its own inventory, no results cache
      List<PanelResult> plain = new DashboardService(f.backend, CATALOG).render(r);
      assertThat(got).as("round " + round).isEqualTo(plain);
      int queries = 0;
      for (PanelResult p : got) {
        for (PanelResult.QueryData q : p.queries()) {
          if (q.promql() == null) {
            continue;
          }
          queries++;
          Matrix m = (Matrix) f.backend.rangeQuery(q.promql(), start, end, step).value();
          assertThat(q.series()).as(q.promql()).isEqualTo(seriesOf(m));
        }
        PanelResult was = previous.put(p.panel().id(), p);
        if (was != null && !was.equals(p)) {
          changed.add(p.panel().id());
        }
      }
      assertThat(queries).isGreaterThan(40);
      f.run(Duration.ofMinutes(1)); // new samples for the newest steps of the same window
    }
    assertThat(changed).as("new samples changed panels between rounds").isNotEmpty();
    assertThat(tails).as("range queries over the tail only").isPositive();
    // each distinct query runs once per render, however many panels share it
    Set<String> distinct = new HashSet<>();
    int compiled = 0;
    for (PanelResult p : previous.values()) {
      for (PanelResult.QueryData q : p.queries()) {
        if (q.promql() != null) {
          compiled++;
          distinct.add(q.promql());
        }
      }
    }
    assertThat(ranges).hasSize(3 * distinct.size());
    assertThat(distinct.size()).as("panels share queries").isLessThan(compiled);
  }

  @Test
  void aRequestJoinsTheSameQueryRunningForAnother() throws Exception {
    SimulatedFleet f = new SimulatedFleet(FleetConfig.builder().build(), true);
    f.run(Duration.ofMinutes(10));
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch go = new CountDownLatch(1);
    List<long[]> ranges = new ArrayList<>();
    QueryBackend gated =
        new RecordingBackend(f.backend, ranges) {
          @Override
          public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
            started.countDown();
            try {
              go.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return super.rangeQuery(query, startMs, endMs, stepMs);
          }
        };
    DashboardService s = new DashboardService(QueryStack.of(gated), CATALOG);
    DashboardRequest r =
        new DashboardRequest(
            Filters.NONE, 0.9, f.now() - 600_000, f.now(), 60_000, "5m", List.of("model.qps"));
    List<List<PanelResult>> got = new ArrayList<>(List.of(List.of(), List.of()));
    Thread a = new Thread(() -> got.set(0, s.render(r)));
    a.start();
    assertThat(started.await(30, TimeUnit.SECONDS)).isTrue(); // a's query is running
    Thread b = new Thread(() -> got.set(1, s.render(r)));
    b.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (b.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
      Thread.sleep(5); // b waits for a's answer
    }
    go.countDown();
    a.join(30_000);
    b.join(30_000);
    assertThat(ranges).hasSize(1);
    assertThat(got.get(1)).isEqualTo(got.get(0));
    assertThat(got.get(0).get(0).status()).isNotEqualTo(PanelResult.Status.EMPTY);
  }

  private static List<PanelResult.SeriesData> seriesOf(Matrix m) {
    List<PanelResult.SeriesData> out = new ArrayList<>();
    for (TimeSeries ts : m.series()) {
      Map<String, String> labels = new LinkedHashMap<>();
      for (int i = 0; i < ts.labels().size(); i++) {
        labels.put(ts.labels().name(i), ts.labels().value(i));
      }
      long[] t = new long[ts.size()];
      double[] v = new double[ts.size()];
      for (int i = 0; i < ts.size(); i++) {
        t[i] = ts.timestampAt(i);
        v[i] = ts.valueAt(i);
      }
      out.add(new PanelResult.SeriesData(labels, t, v));
    }
    return out;
  }
}
