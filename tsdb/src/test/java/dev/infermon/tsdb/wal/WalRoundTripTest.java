package dev.infermon.tsdb.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalRoundTripTest {
  @TempDir Path dir;

  /** Writes {@code commits} batches of a few series each; returns the expected sample entries. */
  static List<String> writeCommits(WalWriter w, int commits, long seed) {
    Random r = new Random(seed);
    List<String> expected = new ArrayList<>();
    WalBatch b = new WalBatch();
    long nextRef = 1;
    for (int c = 0; c < commits; c++) {
      int n = 1 + r.nextInt(20);
      long[] refs = new long[n];
      long[] ts = new long[n];
      double[] vs = new double[n];
      long t = 1_700_000_000_000L + c * 15_000L;
      for (int i = 0; i < n; i++) {
        if (r.nextInt(4) == 0 || nextRef == 1) {
          long ref = nextRef++;
          b.series(ref, Labels.of("__name__", "m" + (ref % 7), "id", Long.toString(ref)));
          refs[i] = ref;
        } else {
          refs[i] = 1 + r.nextInt((int) nextRef - 1);
        }
        ts[i] = t + r.nextInt(3) - 1;
        double[] specials = {StaleNaN.VALUE, Double.NaN, Double.POSITIVE_INFINITY, -0.0};
        vs[i] = r.nextInt(10) == 0 ? specials[r.nextInt(4)] : r.nextGaussian() * 1e6;
        expected.add(RecordingSink.entry(refs[i], ts[i], vs[i]));
      }
      b.samples(refs, ts, vs, n);
      w.write(b);
    }
    return expected;
  }

  @Test
  void everyWrittenSampleIsReplayedInOrderWithExactBits() throws Exception {
    List<String> expected;
    try (WalWriter w = WalWriter.open(dir, 4096)) {
      expected = writeCommits(w, 500, 1);
    }
    RecordingSink sink = new RecordingSink();
    ReplayStats stats = WalReplay.replay(dir, Long.MIN_VALUE, sink);

    assertThat(sink.samples).isEqualTo(expected);
    assertThat(stats.repairs()).isEmpty();
    assertThat(stats.orphanSamples()).isZero();
    assertThat(stats.segmentsRead()).as("4 KiB segments are cut").isGreaterThan(5);
    assertThat(sink.series.get(3L)).isEqualTo(Labels.of("__name__", "m3", "id", "3"));
  }

  @Test
  void reopeningStartsANewSegmentAfterTheLast() throws Exception {
    List<String> expected = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      try (WalWriter w = WalWriter.open(dir, 1 << 20)) {
        assertThat(w.currentSegment()).isEqualTo(round);
        expected.addAll(writeCommits(w, 20, round));
      }
    }
    RecordingSink sink = new RecordingSink();
    WalReplay.replay(dir, Long.MIN_VALUE, sink);
    // Refs restart at 1 in each round with new labels: replay keeps the latest labels per ref.
    assertThat(sink.samples).isEqualTo(expected);
  }

  @Test
  void samplesBeforeTheMinimumValidTimeAreDroppedAndCounted() throws Exception {
    try (WalWriter w = WalWriter.open(dir, 1 << 20)) {
      WalBatch b = new WalBatch();
      b.series(1, Labels.of("__name__", "a"));
      b.samples(new long[] {1, 1, 1}, new long[] {10, 20, 30}, new double[] {1, 2, 3}, 3);
      w.write(b);
    }
    RecordingSink sink = new RecordingSink();
    ReplayStats stats = WalReplay.replay(dir, 20, sink);
    assertThat(sink.samples)
        .containsExactly(RecordingSink.entry(1, 20, 2), RecordingSink.entry(1, 30, 3));
    assertThat(stats.droppedSamples()).isEqualTo(1);
  }

  @Test
  void aSampleLoggedBeforeItsSeriesIsHeldUntilTheSeriesArrives() throws Exception {
    try (WalWriter w = WalWriter.open(dir, 1 << 20)) {
      WalBatch b = new WalBatch();
      // Appender B committed first, for a series appender A created and logs later.
      b.samples(new long[] {7}, new long[] {100}, new double[] {1}, 1);
      w.write(b);
      b.series(7, Labels.of("__name__", "late"));
      b.samples(new long[] {7}, new long[] {200}, new double[] {2}, 1);
      w.write(b);
      b.samples(new long[] {99}, new long[] {300}, new double[] {3}, 1);
      w.write(b);
    }
    RecordingSink sink = new RecordingSink();
    ReplayStats stats = WalReplay.replay(dir, Long.MIN_VALUE, sink);
    assertThat(sink.samples)
        .containsExactly(RecordingSink.entry(7, 100, 1), RecordingSink.entry(7, 200, 2));
    assertThat(stats.orphanSamples()).as("ref 99 never appears").isEqualTo(1);
  }

  @Test
  void batchWritesSeriesBeforeSamplesWhateverTheCallOrder() throws Exception {
    try (WalWriter w = WalWriter.open(dir, 1 << 20)) {
      WalBatch b = new WalBatch();
      b.samples(new long[] {5}, new long[] {1}, new double[] {1}, 1);
      b.series(5, Labels.of("__name__", "x"));
      w.write(b);
      assertThat(b.isEmpty()).as("write clears the batch").isTrue();
    }
    RecordingSink sink = new RecordingSink();
    ReplayStats stats = WalReplay.replay(dir, Long.MIN_VALUE, sink);
    assertThat(sink.samples).containsExactly(RecordingSink.entry(5, 1, 1));
    assertThat(stats.orphanSamples()).isZero();
  }

  @Test
  void checkpointKeepsLiveSeriesAndRecentSamplesAndDeletesFoldedSegments() throws Exception {
    List<String> expected;
    int through;
    try (WalWriter w = WalWriter.open(dir, 2048)) {
      expected = writeCommits(w, 200, 7);
      through = w.nextSegment();
      // Appends continue while the checkpoint is written; they stay in later segments.
      List<String> later = writeCommits(w, 5, 8);
      long mint = 1_700_000_000_000L + 100 * 15_000L;
      Checkpoint.Stats stats =
          Checkpoint.create(
              dir,
              through,
              v -> {
                for (long ref = 1; ref <= 20; ref += 2) {
                  v.accept(ref, Labels.of("__name__", "live", "ref", Long.toString(ref)));
                }
              },
              mint);
      assertThat(stats.series()).isEqualTo(10);
      assertThat(stats.deletedSegments()).isEqualTo(through + 1);
      expected.removeIf(e -> !keptByCheckpoint(e, mint));
      expected.addAll(later);
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .contains(WalFormat.checkpointName(through))
          .noneMatch(n -> n.matches("\\d{8}") && Integer.parseInt(n) <= through);
    }
    RecordingSink sink = new RecordingSink();
    ReplayStats stats = WalReplay.replay(dir, Long.MIN_VALUE, sink);
    assertThat(stats.checkpoint()).isEqualTo(through);
    assertThat(sink.samples).isEqualTo(expected);
  }

  private static boolean keptByCheckpoint(String entry, long mint) {
    long ref = Long.parseLong(entry.substring(0, entry.indexOf('@')));
    long t = Long.parseLong(entry.substring(entry.indexOf('@') + 1, entry.indexOf('=')));
    return t >= mint && ref % 2 == 1 && ref <= 20;
  }

  @Test
  void aSecondCheckpointFoldsTheFirst() throws Exception {
    try (WalWriter w = WalWriter.open(dir, 1 << 20)) {
      WalBatch b = new WalBatch();
      b.series(1, Labels.of("__name__", "a"));
      b.samples(new long[] {1}, new long[] {10}, new double[] {1}, 1);
      w.write(b);
      int first = w.nextSegment();
      Checkpoint.create(dir, first, v -> v.accept(1, Labels.of("__name__", "a")), 0);
      b.samples(new long[] {1}, new long[] {20}, new double[] {2}, 1);
      w.write(b);
      int second = w.nextSegment();
      Checkpoint.create(dir, second, v -> v.accept(1, Labels.of("__name__", "a")), 15);
      assertThatThrownBy(() -> Checkpoint.create(dir, second, v -> {}, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not after existing checkpoint");
      assertThat(Files.exists(dir.resolve(WalFormat.checkpointName(first)))).isFalse();
    }
    RecordingSink sink = new RecordingSink();
    WalReplay.replay(dir, Long.MIN_VALUE, sink);
    assertThat(sink.samples).containsExactly(RecordingSink.entry(1, 20, 2));
  }

  @Test
  void anEmptyOrMissingDirectoryReplaysAsEmpty() throws Exception {
    RecordingSink sink = new RecordingSink();
    ReplayStats stats = WalReplay.replay(dir.resolve("absent"), Long.MIN_VALUE, sink);
    assertThat(stats.series()).isZero();
    assertThat(stats.samples()).isZero();
    assertThat(stats.checkpoint()).isEqualTo(-1);
  }

  @Test
  void aClosedWriterRefusesWrites() throws Exception {
    WalWriter w = WalWriter.open(dir, 1 << 20);
    w.close();
    WalBatch b = new WalBatch();
    b.series(1, Labels.of("__name__", "a"));
    assertThatThrownBy(() -> w.write(b)).isInstanceOf(IllegalStateException.class);
  }
}
