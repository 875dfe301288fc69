package dev.infermon.tsdb.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.StorageUnavailableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, without a mount: {@link FillingDisk} sends writes to {@code /dev/full}, so the
 * writer sees the kernel's ENOSPC exactly as on a full file system.
 */
class WalFullDiskTest {
  @TempDir Path dir;

  @Test
  void writesOnAFullDiskFailNamingTheCauseLeaveNothingBehindAndResumeWhenSpaceReturns()
      throws Exception {
    FillingDisk disk = new FillingDisk();
    List<String> expected = new ArrayList<>();
    try (WalWriter w = WalWriter.open(dir, 4096, disk)) {
      expected.addAll(WalRoundTripTest.writeCommits(w, 5, 1));
      disk.full = true;

      WalBatch small = new WalBatch();
      small.samples(new long[] {1}, new long[] {1}, new double[] {1}, 1);
      assertThatThrownBy(() -> w.write(small))
          .isInstanceOf(StorageUnavailableException.class)
          .hasMessageStartingWith("write-ahead log: cannot write " + dir.resolve("00000000"))
          .hasMessageEndingWith(": No space left on device")
          .matches(e -> ((StorageUnavailableException) e).noSpace());

      // A batch that does not fit starts a segment, whose header cannot be written either.
      WalBatch big = new WalBatch();
      for (int i = 0; i < 200; i++) {
        big.series(1000 + i, Labels.of("__name__", "big", "i", Integer.toString(i)));
      }
      assertThatThrownBy(() -> w.write(big))
          .isInstanceOf(StorageUnavailableException.class)
          .hasMessage(
              "write-ahead log: cannot create segment "
                  + dir.resolve("00000001")
                  + ": No space left on device");
      assertThat(Files.exists(dir.resolve("00000001")))
          .as("no empty segment left to block the next attempt")
          .isFalse();
      assertThat(w.failedWrites()).isEqualTo(2);
      assertThat(w.noSpaceErrors()).isEqualTo(2);

      disk.full = false;
      expected.addAll(WalRoundTripTest.writeCommits(w, 5, 2));
    }
    RecordingSink sink = new RecordingSink();
    ReplayStats stats = WalReplay.replay(dir, Long.MIN_VALUE, sink);
    assertThat(stats.repairs()).as("the failed writes left no partial frame").isEmpty();
    assertThat(sink.samples).isEqualTo(expected);
  }
}
