package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.ForwardingBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.backend.RollupWriter;
import dev.infermon.promql.backend.Rollups;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Storage;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The full dashboard of a simulated fleet (vLLM, SGLang, dcgm-exporter) rendered through a query
 * stack that reads the stored answers ({@link Rollups}) equals the render without them, series for
 * series and point for point: over a window the answers cover, one whose tail is not written yet,
 * and one with a gap in the markers; and reading them evaluates far fewer steps.
 */
class RollupDashboardTest {
  private static final long START = 1_780_000_200_000L; // on the 30 s grid
  private static final long SCRAPE = 30_000;
  private static final long STEP = 90_000; // the UI's step for 6 h (state.js stepFor)

  private final MemoryStorage storage = new MemoryStorage();
  private final Fleet fleet =
      Fleet.create(
          FleetConfig.builder().seed(11).vllmPods(3).sglangPods(2).nodes(3).build(), START);
  private final QueryBackend raw =
      new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
  private final Counting counting = new Counting(raw);
  private final DashboardService plain = new DashboardService(raw, Catalog.builtIn());

  /** Counts the steps evaluated below the rollups' reader. */
  private static final class Counting extends ForwardingBackend {
    final AtomicLong steps = new AtomicLong();

    Counting(QueryBackend d) {
      super(d);
    }

    @Override
    public QueryResult rangeQuery(String q, long start, long end, long step) {
      steps.addAndGet((end - start) / step + 1);
      return delegate.rangeQuery(q, start, end, step);
    }
  }

  private void run(Duration d) {
    new FleetScrape(storage, false).run(fleet, d, Duration.ofMillis(SCRAPE), s -> {});
  }

  private RollupWriter writer(Rollups rollups, long[] clock) {
    return new RollupWriter(
        rollups,
        raw,
        () -> plain.defaultQueries(clock[0], SCRAPE),
        () -> clock[0],
        storage::startTime,
        () -> Long.MIN_VALUE,
        SCRAPE,
        Duration.ofHours(6).toMillis(),
        m -> {});
  }

  private DashboardRequest request(long start, long end) {
    return new DashboardRequest(Filters.NONE, 0.95, start, end, STEP, "5m", List.of());
  }

  private void assertSameRender(DashboardService withRollups, long start, long end) {
    List<PanelResult> expected = plain.render(request(start, end));
    List<PanelResult> actual = withRollups.render(request(start, end));
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i)).as(expected.get(i).panel().id()).isEqualTo(expected.get(i));
    }
  }

  @Test
  void theDashboardReadFromRollupsEqualsTheRawRender() {
    run(Duration.ofMinutes(100));
    long[] clock = {fleet.nowMillis()};
    MemoryStorage store = new MemoryStorage();
    Rollups rollups = new Rollups(store, SCRAPE);
    RollupWriter w = writer(rollups, clock);
    assertThat(w.advance()).isPositive();
    assertThat(rollups.queries()).hasSizeGreaterThan(20);
    // every text a render at the 6 h range's step asks is kept, those naming their step too
    List<String> asked = new java.util.ArrayList<>();
    for (PanelResult p : plain.render(request(START, clock[0]))) {
      p.queries().stream().filter(q -> q.promql() != null).forEach(q -> asked.add(q.promql()));
    }
    assertThat(asked).anyMatch(t -> t.contains("offset 90s"));
    assertThat(rollups.queries().keySet()).containsAll(asked);
    DashboardService withRollups =
        new DashboardService(QueryStack.of(counting, rollups), Catalog.builtIn());
    long end = clock[0] / STEP * STEP - STEP;
    long start = end - Duration.ofMinutes(90).toMillis();
    // covered
    assertSameRender(withRollups, start, end);
    long covered = counting.steps.get();
    // a tail not written yet: the fleet ran on for 20 minutes, the writer did not
    run(Duration.ofMinutes(20));
    long later = fleet.nowMillis() / STEP * STEP;
    counting.steps.set(0);
    assertSameRender(withRollups, later - Duration.ofMinutes(90).toMillis(), later);
    assertThat(counting.steps.get()).as("steps evaluated with a tail").isPositive();
    // read from the store: a small part of the steps a raw render evaluates
    Counting alone = new Counting(raw);
    new DashboardService(alone, Catalog.builtIn()).render(request(start, end));
    assertThat(covered).isLessThan(alone.steps.get() / 4);
  }

  @Test
  void aGapInTheMarkersIsEvaluatedRawAndTheRenderIsUnchanged() {
    run(Duration.ofMinutes(80));
    long[] clock = {fleet.nowMillis()};
    long gapFrom = START + Duration.ofMinutes(30).toMillis();
    long gapTo = START + Duration.ofMinutes(45).toMillis();
    Rollups rollups = new Rollups(new WithGap(new MemoryStorage(), gapFrom, gapTo), SCRAPE);
    writer(rollups, clock).advance();
    DashboardService withRollups =
        new DashboardService(QueryStack.of(counting, rollups), Catalog.builtIn());
    long end = clock[0] / STEP * STEP - STEP;
    assertSameRender(withRollups, START + 10 * STEP, end);
    assertThat(counting.steps.get()).as("the gap's steps, evaluated raw").isPositive();
  }

  /** A store that loses the steps in {@code [from, to]}, answers and markers: a gap. */
  private static final class WithGap implements Storage {
    private final MemoryStorage s;
    private final long from;
    private final long to;

    WithGap(MemoryStorage s, long from, long to) {
      this.s = s;
      this.from = from;
      this.to = to;
    }

    @Override
    public Appender appender() {
      Appender a = s.appender();
      return new Appender() {
        @Override
        public long append(long ref, Labels labels, long t, double v) {
          if (t >= from && t <= to) {
            return ref;
          }
          return a.append(ref, labels, t, v);
        }

        @Override
        public void commit() {
          a.commit();
        }

        @Override
        public void rollback() {
          a.rollback();
        }
      };
    }

    @Override
    public Querier querier() {
      return s.querier();
    }

    @Override
    public Map<String, List<Metadata>> metadata(String metric) {
      return s.metadata(metric);
    }

    @Override
    public long startTime() {
      return s.startTime();
    }

    @Override
    public void close() {
      s.close();
    }
  }
}
