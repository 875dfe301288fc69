package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.TooFarInFutureException;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import dev.infermon.tsdb.wal.WalBatch;
import dev.infermon.tsdb.wal.WalWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a start-up makes of a data directory written by an earlier process, damaged or odd. */
class TsdbStartupTest {
  static final List<Matcher> ALL = List.of(Matcher.metricName("m"));
  static final long T = 1_700_000_000_000L;

  @TempDir Path dir;

  static TsdbOptions options() {
    return TsdbOptions.defaults().withCompactionInterval(Duration.ofHours(1));
  }

  static Labels series(String name) {
    return Labels.of("__name__", "m", "s", name);
  }

  static void append(Tsdb db, Labels l, long t, double v) {
    Appender app = db.appender();
    app.append(l, t, v);
    app.commit();
  }

  static Map<Labels, List<Sample>> readAll(Tsdb db) {
    try (Querier q = db.querier()) {
      return Samples.readAll(q.select(true, Long.MIN_VALUE, Long.MAX_VALUE, ALL));
    }
  }

  @Test
  void aSeriesWhoseRecordWasLostNeverLendsItsSamplesToANewSeries() throws Exception {
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, series("kept"), T, 1);
      append(db, series("lost-record"), T, 2);
      for (int i = 1; i <= 5; i++) {
        append(db, series("kept"), T + i * 1000, 1);
        append(db, series("lost-record"), T + i * 1000, 2);
      }
    }
    flipFirst(dir.resolve(Tsdb.WAL_DIR).resolve("00000000"), "lost-record");

    try (Tsdb db = Tsdb.open(dir, options())) {
      assertThat(db.replayStats().lostSeries()).isEqualTo(1);
      assertThat(db.replayStats().orphanSamples()).isEqualTo(6);
      assertThat(readAll(db)).containsOnlyKeys(series("kept"));
      append(db, series("new"), T + 10_000, 3);
    }
    try (Tsdb db = Tsdb.open(dir, options())) {
      Map<Labels, List<Sample>> all = readAll(db);
      assertThat(all.get(series("new")))
          .as("the new series got a reference of its own, not the lost one's")
          .containsExactly(Sample.of(T + 10_000, 3));
      assertThat(all.get(series("kept"))).hasSize(6);
    }
  }

  @Test
  void aSampleFarInTheFutureIsRefusedAndPresentSamplesGoOnAcrossRestarts() throws Exception {
    long now = System.currentTimeMillis();
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, series("a"), now, 1);
      Appender app = db.appender();
      assertThatThrownBy(() -> app.append(series("b"), now + Duration.ofDays(30).toMillis(), 2))
          .isInstanceOf(TooFarInFutureException.class)
          .hasMessageContaining(series("b").toString())
          .hasMessageContaining("t=" + (now + Duration.ofDays(30).toMillis()))
          .hasMessageContaining("future window of 600 s");
      app.append(series("b"), now, 2);
      app.commit();
      assertThat(db.headStats().tooFarInFuture()).isEqualTo(1);
      assertThat(db.headStats().maxTime()).isEqualTo(now);
    }
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, series("a"), now + 1000, 3);
      assertThat(readAll(db).get(series("a"))).hasSize(2);
    }
  }

  /**
   * A log written before the window was enforced: one series holds a sample near Long.MAX_VALUE.
   * With the default window replay drops it; with a window wide enough to keep it, the head spans
   * almost all of time. Either way a compaction ends and close() returns (they used to cut an empty
   * block and a checkpoint per 2 h range up to the end of time, and close() waited on them).
   */
  @ParameterizedTest(name = "future window {0}")
  @ValueSource(longs = {600_000L, Long.MAX_VALUE})
  void aSampleNearTheEndOfTimeInAnOldLogNeitherStopsCompactionNorShutdown(long windowMs)
      throws Exception {
    long now = System.currentTimeMillis();
    try (WalWriter w = WalWriter.open(dir.resolve(Tsdb.WAL_DIR), 1 << 20)) {
      WalBatch b = new WalBatch();
      b.series(1, series("a"));
      b.series(2, series("far"));
      b.samples(
          new long[] {1, 2, 1},
          new long[] {now - 1000, Long.MAX_VALUE - 1, now},
          new double[] {1, 2, 3},
          3);
      w.write(b);
    }
    TsdbOptions opts = options().withFutureWindow(Duration.ofMillis(windowMs));
    Tsdb db = Tsdb.open(dir, opts);
    try {
      boolean kept = windowMs == Long.MAX_VALUE;
      assertThat(db.futureSamplesDroppedAtReplay()).isEqualTo(kept ? 0 : 1);
      assertThat(db.headStats().maxTime()).isEqualTo(kept ? Long.MAX_VALUE - 1 : now);
      if (!kept) {
        assertThat(db.startupProblems()).anyMatch(p -> p.contains("beyond the future window"));
      }
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> db.compact());
      assertThat(readAll(db).get(series("a"))).hasSize(2);
    } finally {
      assertTimeoutPreemptively(Duration.ofSeconds(60), db::close);
    }
  }

  /** Flips the first byte of the first occurrence of {@code text} in the file. */
  static void flipFirst(Path file, String text) throws IOException {
    byte[] b = Files.readAllBytes(file);
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    outer:
    for (int i = 0; i + needle.length <= b.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (b[i + j] != needle[j]) {
          continue outer;
        }
      }
      b[i] ^= 0x5A;
      Files.write(file, b);
      return;
    }
    throw new AssertionError(text + " not found in " + file);
  }
}
