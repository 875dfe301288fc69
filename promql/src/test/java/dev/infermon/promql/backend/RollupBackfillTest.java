package dev.infermon.promql.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Backfill;
import dev.infermon.storage.OutOfBoundsException;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Storage;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A query text new to a running store (an upgrade changed it, a panel was added) is caught up over
 * the writer's whole reach, also where that is older than the store's appendable window: those
 * steps go in as a block of their own. The reader then answers the whole reach from the store, the
 * engine's answer step for step, and a late sender still takes back the steps it changed. The store
 * is a memory storage that refuses appends older than an hour before its newest sample, as a TSDB's
 * head does, and takes such samples only whole ({@link Backfill}).
 */
class RollupBackfillTest {
  private static final long T0 = 1_780_000_200_000L; // on the 30 s grid
  private static final long SCRAPE = 30_000;
  private static final long HOUR = 3_600_000;
  private static final long REACH = 6 * HOUR;
  private static final List<String> NEW =
      List.of("max_over_time(queue[10m])", "rate(queue[5m])"); // the second one annotated

  private final MemoryStorage storage = new MemoryStorage();
  private final WindowedStore store = new WindowedStore();
  private long now = T0;
  private final RecordedCommits watermark = new RecordedCommits();
  private final QueryBackend engine =
      new EmbeddedQueryBackend(
          storage, new Engine(EngineOptions.DEFAULTS), () -> now - HOUR, watermark);
  private final CountingBackend counting = new CountingBackend(engine, () -> now - HOUR);
  private final Rollups rollups = new Rollups(store, SCRAPE);
  private final RollupBackend reader = new RollupBackend(counting, rollups);
  private final List<String> log = new ArrayList<>();
  private List<String> queries =
      RollupBackendTest.QUERIES.stream().filter(q -> !NEW.contains(q)).toList();

  private RollupWriter writer() {
    return new RollupWriter(
        rollups,
        engine,
        () -> queries,
        () -> now,
        storage::startTime,
        store::appendableMinTime,
        SCRAPE,
        REACH,
        log::add);
  }

  private void scrape(long t, String podPrefix) {
    Appender app = storage.appender();
    long k = (t - T0) / SCRAPE;
    for (int pod = 0; pod < 3; pod++) {
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

  private void assertExact(RollupBackend r, long start, long end, long step) {
    for (String q : RollupBackendTest.QUERIES) {
      QueryResult raw = engine.rangeQuery(q, start, end, step);
      QueryResult read = r.rangeQuery(q, start, end, step);
      assertThat(read.value()).as(q).isEqualTo(raw.value());
      assertThat(read.annotations()).as(q).isEqualTo(raw.annotations());
    }
  }

  /** The store written for six hours of the old texts, then the new ones kept; the reach's end. */
  private long upgrade(RollupWriter w) {
    scrapeFor(7 * HOUR);
    assertThat(w.advance()).isPositive();
    scrapeFor(10 * 60_000);
    queries = RollupBackendTest.QUERIES;
    long to = rollups.floor(now - SCRAPE);
    assertThat(store.appendableMinTime())
        .as("the store's window has moved past the new texts' reach")
        .isGreaterThan(to - REACH + HOUR);
    assertThat(w.advance()).isPositive();
    assertThat(store.backfills).as("one block per new text").isEqualTo(NEW.size());
    return to;
  }

  @Test
  void aNewTextIsAnsweredFromTheStoreOverTheWholeReach() {
    long to = upgrade(writer());
    long from = to - REACH;
    long[] before = reader.stats();
    for (String q : NEW) {
      assertThat(reader.rangeQuery(q, from, to, SCRAPE).value())
          .as(q)
          .isEqualTo(engine.rangeQuery(q, from, to, SCRAPE).value());
    }
    long[] after = reader.stats();
    assertThat(after[1] - before[1]).as("steps evaluated raw").isZero();
    assertThat(after[0] - before[0]).as("steps read").isEqualTo(NEW.size() * (REACH / SCRAPE + 1));
    assertExact(reader, from, to, SCRAPE);
    assertExact(reader, from + 4 * SCRAPE, to, 90_000);
    assertThat(log).anyMatch(l -> l.contains("written as a block of its own"));
    // a restarted writer finds the block's markers: nothing is due again
    assertThat(writer().advance()).isZero();
  }

  @Test
  void aLateSenderTakesBackBackfilledStepsItChanged() {
    RollupWriter w = writer();
    long to = upgrade(w);
    long from = to - REACH;
    // a sender five hours late: below the store's window, inside the block
    for (long t = to - 5 * HOUR; t < to - 4 * HOUR; t += SCRAPE) {
      scrape(t, "late");
    }
    assertExact(reader, from, to, 60_000); // before the writer's check: the reader takes them back
    w.advance();
    assertExact(reader, from, to, 60_000);
    Rollups again = new Rollups(store, SCRAPE); // a restart: revoked for good
    again.setQueries(RollupBackendTest.QUERIES);
    RollupBackend r = new RollupBackend(counting, again);
    assertExact(r, from, to, 60_000);
    assertThat(r.stats()[1]).as("steps evaluated raw").isPositive();
  }

  /**
   * A memory storage with a TSDB head's appendable window (an hour before its newest sample) and
   * backfill of whole sets of older samples.
   */
  private static final class WindowedStore implements Storage, Backfill {
    private final MemoryStorage inner = new MemoryStorage();
    private long newest = Long.MIN_VALUE;
    int backfills;

    long appendableMinTime() {
      return newest == Long.MIN_VALUE ? Long.MIN_VALUE : newest - HOUR;
    }

    @Override
    public Appender appender() {
      long min = appendableMinTime();
      Appender app = inner.appender();
      return new Appender() {
        private long max = Long.MIN_VALUE;

        @Override
        public long append(long ref, Labels labels, long t, double v) {
          if (t < min) {
            throw new OutOfBoundsException("t=" + t + " is before " + min);
          }
          max = Math.max(max, t);
          return app.append(ref, labels, t, v);
        }

        @Override
        public void commit() {
          app.commit();
          newest = Math.max(newest, max);
        }

        @Override
        public void rollback() {
          app.rollback();
        }
      };
    }

    @Override
    public boolean backfill(long mintMs, long maxtMs, List<Samples> series) {
      Appender app = inner.appender();
      for (Samples s : series) {
        long[] ts = s.timestamps();
        double[] vs = s.values();
        for (int i = 0; i < ts.length; i++) {
          assertThat(ts[i]).isBetween(mintMs, maxtMs - 1);
          app.append(0, s.labels(), ts[i], vs[i]);
        }
      }
      app.commit();
      backfills++;
      return !series.isEmpty();
    }

    @Override
    public Querier querier() {
      return inner.querier();
    }

    @Override
    public Map<String, List<Metadata>> metadata(String metric) {
      return inner.metadata(metric);
    }

    @Override
    public long startTime() {
      return inner.startTime();
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}
