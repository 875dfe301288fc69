package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Appenders, readers and background compaction at once, bounded in count and time: every reader
 * must always see, per series, an unbroken run of samples from the first with the right values (no
 * hole while data moves from head to block, no duplicate where both hold it).
 */
class TsdbStressTest {
  private static final int APPENDERS = 3;
  private static final int SERIES_PER_APPENDER = 5;
  private static final int STEPS = 1_200;
  private static final long STEP_MS = 1_000;

  @TempDir Path dir;

  static Labels series(int a, int s) {
    return Labels.of("__name__", "stress", "a", Integer.toString(a), "s", Integer.toString(s));
  }

  static double value(int a, int s, long t) {
    return a * 1e6 + s * 1e4 + t / (double) STEP_MS;
  }

  @Test
  void readersSeeConsistentSeriesWhileAppendsAndCompactionsRun() throws Exception {
    TsdbOptions opts =
        TsdbOptions.defaults()
            .withBlockRange(Duration.ofSeconds(20))
            .withCompactionInterval(Duration.ofMillis(20))
            .withRetentionTime(Duration.ZERO)
            .withReaderDrainTimeout(Duration.ofSeconds(10));
    ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    try (Tsdb db = Tsdb.open(dir, opts)) {
      CountDownLatch finished = new CountDownLatch(APPENDERS);
      // Appenders move in step, as scrapes of one interval do: the head rejects samples more than
      // half a block range behind its newest.
      Phaser clock = new Phaser(APPENDERS);
      List<Thread> threads = new ArrayList<>();
      for (int a = 0; a < APPENDERS; a++) {
        int id = a;
        threads.add(
            new Thread(
                () -> {
                  try {
                    long[] refs = new long[SERIES_PER_APPENDER];
                    for (int k = 0; k < STEPS; k++) {
                      clock.arriveAndAwaitAdvance();
                      long t = k * STEP_MS;
                      Appender app = db.appender();
                      for (int s = 0; s < SERIES_PER_APPENDER; s++) {
                        refs[s] = app.append(refs[s], series(id, s), t, value(id, s, t));
                      }
                      app.commit();
                      if (k % 4 == 0) {
                        Thread.sleep(1);
                      }
                    }
                  } catch (Throwable e) {
                    problems.add("appender " + id + ": " + e);
                    clock.arriveAndDeregister();
                  } finally {
                    finished.countDown();
                  }
                }));
      }
      for (int r = 0; r < 2; r++) {
        threads.add(
            new Thread(
                () -> {
                  long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                  while (!done.get() && System.nanoTime() < deadline) {
                    check(db, problems, false);
                    reads.incrementAndGet();
                  }
                }));
      }
      threads.forEach(Thread::start);
      assertThat(finished.await(60, TimeUnit.SECONDS)).as("appenders finished").isTrue();
      done.set(true);
      for (Thread t : threads) {
        t.join(30_000);
      }
      assertThat(problems).isEmpty();
      assertThat(reads.get()).as("readers ran").isGreaterThan(3);
      db.compact();
      assertThat(db.blocks()).as("compaction ran").isNotEmpty();
      check(db, problems, true);
      assertThat(problems).isEmpty();
    }
  }

  private static void check(Tsdb db, ConcurrentLinkedQueue<String> problems, boolean complete) {
    Map<Labels, List<Sample>> all;
    try (Querier q = db.querier()) {
      all =
          Samples.readAll(
              q.select(
                  true, Long.MIN_VALUE, Long.MAX_VALUE, List.of(Matcher.metricName("stress"))));
    } catch (RuntimeException e) {
      problems.add("reader: " + e);
      return;
    }
    for (int a = 0; a < APPENDERS; a++) {
      for (int s = 0; s < SERIES_PER_APPENDER; s++) {
        List<Sample> got = all.getOrDefault(series(a, s), List.of());
        for (int k = 0; k < got.size(); k++) {
          long t = k * STEP_MS;
          Sample want = Sample.of(t, value(a, s, t));
          if (!got.get(k).equals(want)) {
            problems.add(series(a, s) + " sample " + k + " is " + got.get(k) + ", want " + want);
            return;
          }
        }
        if (complete && got.size() != STEPS) {
          problems.add(series(a, s) + " has " + got.size() + " samples, want " + STEPS);
        }
      }
    }
  }
}
