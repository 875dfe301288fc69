package dev.infermon.promql.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.BadQueryException;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.storage.AppendWatermark;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The step-aligned results cache answers exactly what the engine answers without it, while new
 * samples keep arriving at the newest time and 40 minutes late (a TSDB accepts late samples only
 * inside its appendable window, an hour before the newest sample, which the bound the backend
 * states here stands for; older ones are rejected, so they cannot occur), and evaluates only the
 * tail when it can. The bound comes from the seam: the backend's {@link
 * QueryBackend#immutableBefore()}, minus the margin.
 */
class CachingBackendTest {
  private static final long T0 = 1_780_000_000_000L;
  private static final long SCRAPE = 15_000;
  private static final long HOUR = 3_600_000;

  private final MemoryStorage storage = new MemoryStorage();
  private final QueryBackend engine =
      new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
  private long now = T0;
  private final CountingBackend counting = new CountingBackend(engine, () -> now - HOUR);
  private final List<long[]> ranges = counting.ranges;

  /** Appends one scrape of a few counters, gauges and a histogram at {@code now}. */
  private void scrape() {
    Appender app = storage.appender();
    long k = (now - T0) / SCRAPE;
    for (int pod = 0; pod < 4; pod++) {
      if (pod == 3 && k < 300) {
        continue; // a pod that appears later: a series only in the tail
      }
      String p = "p" + pod;
      app.append(0, Labels.of("__name__", "reqs_total", "pod", p), now, k * (pod + 1) + k % 7);
      app.append(0, Labels.of("__name__", "queue", "pod", p), now, (k * 31 + pod) % 13);
      double cum = 0;
      for (String le : new String[] {"0.1", "0.5", "1", "+Inf"}) {
        cum += (k * (pod + 2) + le.length()) % 5;
        app.append(0, Labels.of("__name__", "lat_bucket", "pod", p, "le", le), now, cum * k);
      }
    }
    // a sender 40 min behind (remote write catching up): late, but inside the appendable window
    long late = now - 40 * 60_000;
    if (late >= T0) {
      long kl = (late - T0) / SCRAPE;
      app.append(0, Labels.of("__name__", "reqs_total", "pod", "late"), late, kl * 3);
      app.append(0, Labels.of("__name__", "queue", "pod", "late"), late, kl % 11);
    }
    app.commit();
    watermark.commit(late >= T0 ? late : now);
    now += SCRAPE;
  }

  private final RecordedCommits watermark = new RecordedCommits();

  private void scrapeFor(long ms) {
    long until = now + ms;
    while (now < until) {
      scrape();
    }
  }

  private CachingBackend cache() {
    // the TSDB's rule: nothing older than half a chunk range (1 h) before the newest sample
    return new CachingBackend(counting, 0, () -> now, 10 * 60_000, 100, 10_000_000);
  }

  private static final List<String> QUERIES =
      List.of(
          "sum by (pod) (rate(reqs_total[5m]))",
          "histogram_quantile(0.9, sum by (le) (rate(lat_bucket[5m])))",
          "max_over_time(queue[10m])",
          "queue / on (pod) rate(reqs_total[1m])",
          "avg(queue)",
          "sum_over_time(queue[17m]) / avg_over_time(reqs_total[7m])",
          "stddev_over_time(queue[9m]) + quantile_over_time(0.3, queue[5m])",
          // reads only before the step: as final as the step itself
          "lat_bucket - lat_bucket offset 90s",
          "rate(reqs_total[5m] offset 10m)",
          "max_over_time(avg(queue)[20m:1m] offset 3m)");

  @Test
  void answersAsTheEngineWhileSamplesArrive() {
    scrapeFor(3 * HOUR);
    CachingBackend cache = cache();
    long step = 60_000;
    long end = (now / step + 2) * step; // in the future, as the UI's rounded-up end
    long start = end - 2 * HOUR;
    for (int round = 0; round < 6; round++) {
      for (String q : QUERIES) {
        QueryResult want = engine.rangeQuery(q, start, end, step);
        QueryResult got = cache.rangeQuery(q, start, end, step);
        assertThat(series(got)).as(q + " round " + round).isEqualTo(series(want));
        assertThat(got.annotations().all())
            .as(q)
            .containsExactlyInAnyOrderElementsOf(want.annotations().all());
      }
      scrapeFor(2 * 60_000); // new samples for the recent steps, inside the window
      if (round % 2 == 1) {
        start += 2 * step; // the window moves on, as a refreshed page's does
        end += 2 * step;
      }
    }
    assertThat(cache.stats()[0]).as("hits").isEqualTo(5L * QUERIES.size());
    assertThat(cache.stats()[1]).as("misses").isEqualTo(QUERIES.size());
  }

  @Test
  void withTheStoragesWatermarkAnswersAsTheEngineWhileSamplesArrive() {
    counting.watermark = watermark;
    answersAsTheEngineWhileSamplesArrive();
  }

  @Test
  void withTheStoragesWatermarkOnlyStepsFromTheLowestCommittedSampleOnAreEvaluatedAgain() {
    counting.watermark = watermark;
    scrapeFor(3 * HOUR);
    CachingBackend cache = cache();
    long step = 60_000;
    long end = (now / step + 1) * step;
    long start = end - 2 * HOUR;
    String q = QUERIES.get(0);
    cache.rangeQuery(q, start, end, step);
    QueryResult again = cache.rangeQuery(q, start, end, step);
    assertThat(ranges).as("nothing committed since: no evaluation").hasSize(1);
    assertThat(series(again)).isEqualTo(series(engine.rangeQuery(q, start, end, step)));
    long late = now - 40 * 60_000; // the next scrape's lowest sample: the late sender's
    scrapeFor(SCRAPE);
    QueryResult got = cache.rangeQuery(q, start, end, step);
    assertThat(ranges).hasSize(2);
    assertThat(ranges.get(1)[0])
        .as("from the first step at or after the late sample, not an hour and more back")
        .isEqualTo(CachingBackend.lastStepBefore(start, step, late) + step)
        .isGreaterThan(CachingBackend.lastStepBefore(start, step, now - HOUR) + step);
    assertThat(series(got)).isEqualTo(series(engine.rangeQuery(q, start, end, step)));
    // what the storage no longer keeps track of: the appendable window's bound, as without
    counting.watermark =
        new AppendWatermark() {
          @Override
          public long mark() {
            return 0;
          }

          @Override
          public OptionalLong lowestSince(long mark) {
            return OptionalLong.empty();
          }
        };
    scrapeFor(SCRAPE);
    cache.rangeQuery(q, start, end, step);
    assertThat(ranges.get(2)[0])
        .isLessThanOrEqualTo(CachingBackend.lastStepBefore(start, step, now - HOUR) + step);
  }

  @Test
  void evaluatesOnlyTheTailOnAHit() {
    scrapeFor(3 * HOUR);
    CachingBackend cache = cache();
    long step = 60_000;
    long end = (now / step + 1) * step;
    long start = end - 2 * HOUR;
    String q = QUERIES.get(0);
    cache.rangeQuery(q, start, end, step);
    assertThat(ranges).hasSize(1);
    assertThat(ranges.get(0)).containsExactly(start, end);
    scrapeFor(60_000);
    QueryResult got = cache.rangeQuery(q, start, end, step);
    assertThat(ranges).hasSize(2);
    long cut = CachingBackend.lastStepBefore(start, step, now - 60_000 - HOUR);
    // the tail starts right after the last step that was final at the first evaluation
    assertThat(ranges.get(1)[0]).isEqualTo(cut + step);
    assertThat(ranges.get(1)[1]).isEqualTo(end);
    assertThat(series(got)).isEqualTo(series(engine.rangeQuery(q, start, end, step)));
  }

  @Test
  void theBoundIsTheBackendsReadAtEachQueryMinusTheMargin() {
    scrapeFor(3 * HOUR);
    long margin = 5 * 60_000;
    CachingBackend cache =
        new CachingBackend(counting, margin, () -> now, 10 * 60_000, 100, 1 << 20);
    long step = 60_000;
    long end = (now / step + 1) * step;
    long start = end - 2 * HOUR;
    String q = QUERIES.get(0);
    long bound = now - HOUR; // what the backend states when the first evaluation starts
    cache.rangeQuery(q, start, end, step);
    scrapeFor(3 * 60_000); // the backend's bound moves on with the newest sample
    cache.rangeQuery(q, start, end, step);
    assertThat(ranges).hasSize(2);
    long cut = CachingBackend.lastStepBefore(start, step, bound - margin);
    assertThat(ranges.get(1)[0]).isEqualTo(cut + step);
    assertThat(ranges.get(1)[0]).isLessThan(CachingBackend.lastStepBefore(start, step, bound));
  }

  @Test
  void neverCachesWhatCouldReadAfterTheStep() {
    scrapeFor(3 * HOUR);
    CachingBackend cache = cache();
    long step = 60_000;
    long end = (now / step) * step;
    long start = end - 2 * HOUR;
    for (String q :
        List.of(
            "rate(reqs_total[5m] offset -10m)",
            "queue @ end()",
            "queue @ 1e9",
            "queue - queue offset -1m",
            "max_over_time(queue[10m:1m] offset -5m)",
            "max_over_time(queue[10m:1m] @ start())")) {
      cache.rangeQuery(q, start, end, step);
      cache.rangeQuery(q, start, end, step);
    }
    assertThat(ranges).allSatisfy(r -> assertThat(r).containsExactly(start, end));
    assertThat(cache.stats()).containsExactly(0, 0);
  }

  @Test
  void aQueryThatDoesNotParseGetsTheEnginesError() {
    scrapeFor(3 * HOUR);
    long end = (now / 60_000) * 60_000;
    assertThatThrownBy(() -> cache().rangeQuery("queue{", end - HOUR, end, 60_000))
        .isInstanceOf(BadQueryException.class)
        .hasMessageContaining("inside braces");
  }

  @Test
  void cachesNothingWhenNoStepIsFinalOrTheHorizonIsUnknown() {
    scrapeFor(HOUR / 2);
    long step = 60_000;
    long end = (now / step) * step;
    long start = end - HOUR / 2;
    CachingBackend young = cache(); // everything is inside the appendable window
    young.rangeQuery(QUERIES.get(0), start, end, step);
    young.rangeQuery(QUERIES.get(0), start, end, step);
    CountingBackend cannotTell = new CountingBackend(engine, null);
    CachingBackend unknown = new CachingBackend(cannotTell, 0, () -> now, 60_000, 10, 10_000_000);
    unknown.rangeQuery(QUERIES.get(0), start, end, step);
    unknown.rangeQuery(QUERIES.get(0), start, end, step);
    assertThat(ranges).hasSize(2).allSatisfy(r -> assertThat(r).containsExactly(start, end));
    assertThat(cannotTell.ranges)
        .hasSize(2)
        .allSatisfy(r -> assertThat(r).containsExactly(start, end));
  }

  @Test
  void anOldEntryOrAnEarlierStartIsEvaluatedInFull() {
    scrapeFor(3 * HOUR);
    AtomicLong clock = new AtomicLong(0);
    CachingBackend cache = new CachingBackend(counting, 0, clock::get, 60_000, 10, 10_000_000);
    long step = 60_000;
    long end = (now / step) * step;
    long start = end - 2 * HOUR;
    String q = QUERIES.get(2);
    cache.rangeQuery(q, start, end, step);
    cache.rangeQuery(q, start - step, end, step); // before the cached range: in full
    clock.set(60_001); // older than the maximum age: in full
    cache.rangeQuery(q, start, end, step);
    assertThat(ranges).hasSize(3);
    assertThat(ranges.get(1)).containsExactly(start - step, end);
    assertThat(ranges.get(2)).containsExactly(start, end);
  }

  @Test
  void keepsAtMostItsPointsLeastRecentlyUsedFirst() {
    scrapeFor(3 * HOUR);
    long step = 60_000;
    long end = (now / step) * step;
    long start = end - 2 * HOUR;
    // one query keeps 5 series x 61 final steps (4 pods and the late sender): room for two
    CachingBackend cache = new CachingBackend(counting, 0, () -> now, 60_000, 10, 700);
    String a = "queue";
    String b = "queue * 2";
    String c = "queue * 3";
    cache.rangeQuery(a, start, end, step);
    cache.rangeQuery(b, start, end, step);
    cache.rangeQuery(a, start, end, step); // a is now the most recently used
    cache.rangeQuery(c, start, end, step); // evicts b
    ranges.clear();
    cache.rangeQuery(a, start, end, step);
    cache.rangeQuery(b, start, end, step);
    assertThat(ranges).hasSize(2);
    assertThat(ranges.get(0)[0]).as("a from the cache: only its tail").isGreaterThan(start);
    assertThat(ranges.get(1)).as("b evicted: in full").containsExactly(start, end);
  }

  @Test
  void lastStepBeforeStaysOnTheGrid() {
    assertThat(CachingBackend.lastStepBefore(1000, 100, 1000)).isEqualTo(900);
    assertThat(CachingBackend.lastStepBefore(1000, 100, 1001)).isEqualTo(1000);
    assertThat(CachingBackend.lastStepBefore(1000, 100, 1100)).isEqualTo(1000);
    assertThat(CachingBackend.lastStepBefore(1000, 100, 1101)).isEqualTo(1100);
  }

  /** Labels, timestamps and value bits of every series: what the dashboard passes on. */
  private static List<String> series(QueryResult r) {
    List<String> out = new ArrayList<>();
    for (TimeSeries s : ((Matrix) r.value()).series()) {
      StringBuilder b = new StringBuilder(s.labels().toString());
      for (int i = 0; i < s.size(); i++) {
        b.append(' ')
            .append(s.timestampAt(i))
            .append('=')
            .append(Long.toHexString(Double.doubleToRawLongBits(s.valueAt(i))));
      }
      out.add(b.toString());
    }
    return out;
  }
}
