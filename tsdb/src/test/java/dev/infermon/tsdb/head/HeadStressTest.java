package dev.infermon.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Appenders, readers, compaction-style exports and truncations at once, for a bounded number of
 * rounds. Afterwards every committed sample is there exactly once; during the run every iterator
 * was strictly increasing and showed only samples that were committed.
 */
class HeadStressTest {
  private static final int WRITERS = 3;
  private static final int SERIES_PER_WRITER = 100;
  private static final int ROUNDS =
      400; // 400 scrapes 15 s apart: 100 min, several chunks per series
  private static final long STEP = 15_000;

  @Test
  void parallelAppendersAndReadersStayConsistent() throws Exception {
    // Writers drift apart by up to the whole run (100 min); a 24 h chunk range keeps the appendable
    // window (half a range behind the newest sample) from rejecting the slowest one. Chunks are
    // still cut at about 120 samples.
    Head head = Head.create(HeadOptions.defaults().withChunkRangeMs(24 * 3_600_000L));
    AtomicInteger committedRounds = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 2);
    try {
      List<Callable<Integer>> tasks = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        tasks.add(() -> write(head, writer, committedRounds));
      }
      tasks.add(() -> read(head, committedRounds));
      tasks.add(() -> exportAndTruncate(head));
      List<Future<Integer>> done = pool.invokeAll(tasks, 120, TimeUnit.SECONDS);
      for (Future<Integer> f : done) {
        assertThat(f.get(1, TimeUnit.SECONDS)).isPositive();
      }
    } finally {
      pool.shutdownNow();
    }

    try (Querier q = head.querier()) {
      Map<Labels, List<Sample>> all =
          Samples.readAll(q.select(true, Long.MIN_VALUE, Long.MAX_VALUE, stress()));
      assertThat(all).hasSize(WRITERS * SERIES_PER_WRITER);
      for (Map.Entry<Labels, List<Sample>> e : all.entrySet()) {
        int s = Integer.parseInt(e.getKey().get("s"));
        List<Sample> want = new ArrayList<>();
        for (int r = 0; r < ROUNDS; r++) {
          want.add(Sample.of(r * STEP, value(s, r)));
        }
        assertThat(e.getValue()).as("%s", e.getKey()).isEqualTo(want);
      }
    }
    assertThat(head.stats().samplesAppended())
        .isEqualTo((long) WRITERS * SERIES_PER_WRITER * ROUNDS);
    assertThat(head.stats().outOfOrder() + head.stats().duplicate()).isZero();
  }

  private static List<Matcher> stress() {
    return List.of(Matcher.metricName("stress"));
  }

  private static double value(int series, int round) {
    return series * 1000.0 + round * 0.25;
  }

  private static int write(Head head, int writer, AtomicInteger committedRounds) {
    long[] refs = new long[SERIES_PER_WRITER];
    Labels[] labels = new Labels[SERIES_PER_WRITER];
    for (int s = 0; s < SERIES_PER_WRITER; s++) {
      labels[s] = Labels.of("__name__", "stress", "w", "w" + writer, "s", Integer.toString(s));
    }
    for (int r = 0; r < ROUNDS; r++) {
      Appender app = head.appender();
      for (int s = 0; s < SERIES_PER_WRITER; s++) {
        refs[s] = app.append(refs[s], labels[s], r * STEP, value(s, r));
      }
      if (r % 7 == 3) {
        // A scrape that fails halfway: rolled back, then retried.
        app.rollback();
        app = head.appender();
        for (int s = 0; s < SERIES_PER_WRITER; s++) {
          refs[s] = app.append(refs[s], labels[s], r * STEP, value(s, r));
        }
      }
      app.commit();
      committedRounds.incrementAndGet();
    }
    return ROUNDS;
  }

  /**
   * Reads while the writers run (at most 2,000 passes), then once more after they finished. The
   * last pass waits for the writers: on a busy machine the reader can use up its passes before any
   * writer has committed, and a reader that never saw a sample has checked nothing.
   */
  private static int read(Head head, AtomicInteger committedRounds) throws InterruptedException {
    int checked = 0;
    for (int i = 0; i < 2_000 && committedRounds.get() < WRITERS * ROUNDS; i++) {
      checked += readOnce(head, i % 2 == 0);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(100);
    while (committedRounds.get() < WRITERS * ROUNDS && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    return checked + readOnce(head, true);
  }

  /** One pass over every series; returns how many series it checked. */
  private static int readOnce(Head head, boolean sorted) {
    int checked = 0;
    try (Querier q = head.querier()) {
      SeriesSet set = q.select(sorted, Long.MIN_VALUE, Long.MAX_VALUE, stress());
      while (set.next()) {
        int s = Integer.parseInt(set.at().labels().get("s"));
        SampleIterator it = set.at().iterator();
        long prev = Long.MIN_VALUE;
        while (it.next()) {
          long t = it.timestamp();
          if (t <= prev) {
            throw new AssertionError("not increasing: " + t + " after " + prev);
          }
          int r = (int) (t / STEP);
          if (t % STEP != 0 || it.value() != value(s, r)) {
            throw new AssertionError("invented sample " + t + "=" + it.value());
          }
          prev = t;
        }
        checked++;
      }
    }
    return checked;
  }

  private static int exportAndTruncate(Head head) {
    int exports = 0;
    for (int i = 0; i < 20; i++) {
      long[] n = new long[1];
      head.exportChunks(0, 30 * 60_000L, (ref, l, chunks) -> n[0] += chunks.size());
      head.truncateBefore(-1); // removes nothing: every sample is at or after 0
      exports++;
    }
    return exports;
  }
}
