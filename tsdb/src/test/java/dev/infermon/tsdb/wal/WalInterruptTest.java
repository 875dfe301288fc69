package dev.infermon.tsdb.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An interrupt closes a {@code FileChannel} in the middle of an operation on it, whichever thread's
 * it was: a scrape or rule thread interrupted while it wrote its batch or synced the log once made
 * every later write fail ("cannot be rewound after a failed write; refusing writes") and the log's
 * close throw, as the UI benchmark's history server did when its ticker was stopped mid-backfill.
 * Now the interrupted thread's batch is logged, its interrupt is kept, and the other writers never
 * notice.
 */
class WalInterruptTest {
  @TempDir Path dir;

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private static void write(WalWriter w, long t, List<String> expected) {
    WalBatch b = new WalBatch();
    if (t == 0) {
      b.series(1, Labels.of("__name__", "up"));
    }
    b.samples(new long[] {1}, new long[] {t}, new double[] {t / 10.0}, 1);
    w.write(b);
    expected.add(RecordingSink.entry(1, t, t / 10.0));
  }

  @Test
  void anInterruptedWritersBatchIsLoggedAndTheLogStaysWritable() throws Exception {
    List<String> expected = new ArrayList<>();
    try (WalWriter w = WalWriter.open(dir, 4096)) {
      for (int c = 0; c < 400; c++) {
        boolean interrupt = c % 3 == 1;
        if (interrupt) {
          Thread.currentThread().interrupt();
        }
        write(w, c * 15L, expected);
        assertThat(Thread.interrupted())
            .as("the interrupt of write %d is kept", c)
            .isEqualTo(interrupt);
      }
      assertThat(w.failedWrites()).isZero();
      assertThat(w.currentSegment()).as("4 KiB segments are cut").isGreaterThan(1);
    }
    RecordingSink sink = new RecordingSink();
    ReplayStats stats = WalReplay.replay(dir, Long.MIN_VALUE, sink);
    assertThat(sink.samples).isEqualTo(expected);
    assertThat(stats.repairs()).isEmpty();
  }

  @Test
  void anInterruptedSyncFailsAloneAndTheNextSyncSyncs() throws Exception {
    List<String> expected = new ArrayList<>();
    try (WalWriter w = WalWriter.open(dir, 1 << 20)) {
      write(w, 0, expected);
      Thread.currentThread().interrupt();
      assertThatThrownBy(w::sync).isInstanceOf(ClosedByInterruptException.class);
      assertThat(Thread.interrupted()).isTrue();
      write(w, 15, expected);
      w.sync();
      write(w, 30, expected);
      assertThat(w.failedWrites()).isZero();
    }
    RecordingSink sink = new RecordingSink();
    WalReplay.replay(dir, Long.MIN_VALUE, sink);
    assertThat(sink.samples).isEqualTo(expected);
  }
}
