package dev.infermon.promql.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Stored answers read through {@link RollupBackend} equal the engine's raw answers, series for
 * series and point for point, over covered windows, a window whose tail is not written yet, a gap
 * in the markers, and after a late sender changed written steps; other queries pass through without
 * a read of the store. The writer runs on the test's clock.
 */
class RollupBackendTest {
  private static final long T0 = 1_780_000_200_000L; // on the 30 s grid
  private static final long SCRAPE = 30_000;
  private static final long HOUR = 3_600_000;

  private final MemoryStorage storage = new MemoryStorage();
  private final MemoryStorage store = new MemoryStorage();
  private long now = T0;
  private final RecordedCommits watermark = new RecordedCommits();
  private final QueryBackend engine =
      new EmbeddedQueryBackend(
          storage, new Engine(EngineOptions.DEFAULTS), () -> now - HOUR, watermark);
  private final CountingBackend counting = new CountingBackend(engine, () -> now - HOUR);
  private final Rollups rollups = new Rollups(store, SCRAPE);
  private final RollupBackend reader = new RollupBackend(counting, rollups);

  static final List<String> QUERIES =
      List.of(
          "sum by (pod) (rate(reqs_total[5m]))",
          "histogram_quantile(0.9, sum by (le) (rate(lat_bucket[5m])))",
          "queue",
          "queue > 6",
          "max_over_time(queue[10m])",
          "queue / on (pod) rate(reqs_total[1m])",
          "rate(reqs_total[5m] offset 10m)",
          "lat_bucket - lat_bucket offset 90s",
          // annotated (a counter's rate of a gauge): its annotations are stored with its steps
          "rate(queue[5m])");

  private List<String> queries = QUERIES;

  private RollupWriter writer() {
    return new RollupWriter(
        rollups,
        engine,
        () -> queries,
        () -> now,
        storage::startTime,
        () -> Long.MIN_VALUE,
        SCRAPE,
        6 * HOUR,
        m -> {});
  }

  private void scrape(long t, String podPrefix) {
    Appender app = storage.appender();
    long k = (t - T0) / SCRAPE;
    for (int pod = 0; pod < 3; pod++) {
      if (pod == 2 && k > 100 && k < 160) {
        continue; // a pod gone for half an hour: series that stop and start again
      }
      String p = podPrefix + pod;
      app.append(0, Labels.of("__name__", "reqs_total", "pod", p), t, k * (pod + 1) + k % 7);
      app.append(0, Labels.of("__name__", "queue", "pod", p), t, (k * 31 + pod) % 13);
      double cum = 0;
      for (String le : new String[] {"0.1", "0.5", "1", "+Inf"}) {
        cum += (k * (pod + 2) + le.length()) % 5;
        app.append(0, Labels.of("__name__", "lat_bucket", "pod", p, "le", le), t, cum * k);
      }
    }
    app.commit();
    watermark.commit(t);
  }

  private void scrapeFor(long ms) {
    long until = now + ms;
    while (now < until) {
      scrape(now, "p");
      now += SCRAPE;
    }
  }

  private void assertExact(long start, long end, long step) {
    for (String q : QUERIES) {
      QueryResult raw = engine.rangeQuery(q, start, end, step);
      QueryResult read = reader.rangeQuery(q, start, end, step);
      assertThat(read.value()).as(q).isEqualTo(raw.value());
      assertThat(read.annotations()).as(q).isEqualTo(raw.annotations());
    }
  }

  @Test
  void storedAnswersEqualTheEnginesOverCoveredTailAndGapWindows() {
    scrapeFor(2 * HOUR);
    RollupWriter w = writer();
    assertThat(w.advance()).isPositive();
    long end = now - 2 * SCRAPE;
    // covered: every step read, none evaluated
    counting.ranges.clear();
    assertExact(T0, rollups.floor(end), 90_000);
    assertThat(reader.stats()[0]).isPositive();
    // the tail not written yet
    scrapeFor(20 * 60_000);
    assertExact(T0 + HOUR, now, 90_000);
    assertExact(T0 + 30 * SCRAPE, now + 60_000, SCRAPE);
    // a gap: the writer stopped for 20 minutes; its catch-up fills it, markers tell it apart
    w.advance();
    scrapeFor(20 * 60_000);
    assertExact(T0, now, 60_000);
    w.advance();
    assertExact(T0 + 7 * SCRAPE, now - SCRAPE, 5 * SCRAPE);
  }

  @Test
  void aGapInTheMarkersIsEvaluatedRaw() {
    scrapeFor(2 * HOUR);
    writer().advance();
    // a second store, written only up to an hour ago: what a stopped writer leaves
    MemoryStorage partial = new MemoryStorage();
    Rollups half = new Rollups(partial, SCRAPE);
    long[] clock = {T0 + HOUR};
    RollupWriter early =
        new RollupWriter(
            half,
            engine,
            () -> QUERIES,
            () -> clock[0],
            storage::startTime,
            () -> Long.MIN_VALUE,
            SCRAPE,
            6 * HOUR,
            m -> {});
    early.advance();
    RollupBackend r = new RollupBackend(counting, half);
    for (String q : QUERIES) {
      assertThat(r.rangeQuery(q, T0, now, 60_000).value())
          .as(q)
          .isEqualTo(engine.rangeQuery(q, T0, now, 60_000).value());
    }
    assertThat(r.stats()[1]).as("steps evaluated raw").isPositive();
  }

  @Test
  void aLateSenderTakesBackTheStepsItChanged() {
    scrapeFor(2 * HOUR);
    RollupWriter w = writer();
    w.advance();
    // a sender 40 minutes late commits the pods' samples of another instance below written steps
    for (long t = now - 40 * 60_000; t < now; t += SCRAPE) {
      scrape(t, "late");
    }
    // before the writer's next check: the reader takes them back itself
    assertExact(T0, now - 2 * SCRAPE, 60_000);
    w.advance();
    assertExact(T0, now - 2 * SCRAPE, 60_000);
    // revoked for good: a new reader over the same store (a restart) evaluates them raw too
    Rollups again = new Rollups(store, SCRAPE);
    again.setQueries(QUERIES);
    RollupBackend r = new RollupBackend(engine, again);
    for (String q : QUERIES) {
      assertThat(r.rangeQuery(q, T0, now - 2 * SCRAPE, 60_000).value())
          .as(q)
          .isEqualTo(engine.rangeQuery(q, T0, now - 2 * SCRAPE, 60_000).value());
    }
  }

  @Test
  void otherQueriesPassThroughWithoutAReadOfTheStore() {
    scrapeFor(HOUR);
    writer().advance();
    String q = QUERIES.get(0);
    long[] before = reader.stats();
    for (long[] r :
        new long[][] {
          {T0 + 1000, now, 60_000}, // start off the grid
          {T0, now, 45_000}, // step not a multiple of the interval
        }) {
      assertThat(reader.rangeQuery(q, r[0], r[1], r[2]).value())
          .isEqualTo(engine.rangeQuery(q, r[0], r[1], r[2]).value());
    }
    assertThat(reader.rangeQuery("avg(queue)", T0, now, 60_000).value())
        .isEqualTo(engine.rangeQuery("avg(queue)", T0, now, 60_000).value());
    assertThat(reader.stats()).isEqualTo(before);
  }

  @Test
  void theWriterCatchesUpFromItsLastMarkerAndWritesOnlyWhatIsDue() {
    scrapeFor(HOUR);
    // every scraped step of every query, the annotated one's with its annotations: the newest
    // scrape is one interval (the lag) before the clock
    assertThat(writer().advance()).isEqualTo(QUERIES.size() * (HOUR / SCRAPE));
    // a restarted writer over the same store: nothing new is due
    assertThat(writer().advance()).isZero();
    scrapeFor(3 * SCRAPE);
    assertThat(writer().advance()).isEqualTo(QUERIES.size() * 3L);
  }

  @Test
  void badSettingsAreNamed() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Rollups(store, 10))
        .hasMessageContaining("10 ms");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new RollupWriter(
                    rollups, engine, () -> queries, () -> now, () -> 0, () -> 0, 1000, 0, m -> {}))
        .hasMessageContaining("lag 1000 ms");
    assertThat(Optional.ofNullable(rollups.idOf("x"))).isEmpty();
  }
}
