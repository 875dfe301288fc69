package dev.infermon.tsdb;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The process {@link CrashRecoveryTest} kills: opens the database, then commits one sample per
 * series per step forever and prints {@code ACK <t>} after each commit has returned. Values are a
 * function of series and time ({@link #value}), so the test can tell a real sample from an invented
 * one. Small block ranges make compaction and checkpoints run while it is killed.
 */
public final class CrashChild {
  static final int SERIES = 40;
  static final long STEP_MS = 1_000;
  static final long START = 1_700_000_000_000L;

  private CrashChild() {}

  static TsdbOptions options() {
    return TsdbOptions.defaults()
        .withBlockRange(Duration.ofSeconds(100))
        .withCompactionInterval(Duration.ofMillis(100))
        .withWalSegmentBytes(64 << 10)
        .withRetentionTime(Duration.ZERO);
  }

  static Labels series(int i) {
    return Labels.of("__name__", "crash_test", "i", Integer.toString(i));
  }

  static double value(int i, long t) {
    return i * 1_000_000.0 + (t - START) / 1_000.0;
  }

  public static void main(String[] args) throws Exception {
    Tsdb db = Tsdb.open(Path.of(args[0]), options());
    long newest = db.headStats().maxTime();
    for (var b : db.blocks()) {
      newest = Math.max(newest, b.maxTime() - 1);
    }
    long t = newest == Long.MIN_VALUE ? START : newest + STEP_MS;
    System.out.println("READY " + t);
    System.out.flush();
    long[] refs = new long[SERIES];
    while (true) {
      Appender app = db.appender();
      for (int i = 0; i < SERIES; i++) {
        refs[i] = app.append(refs[i], series(i), t, value(i, t));
      }
      app.commit();
      System.out.println("ACK " + t);
      System.out.flush();
      t += STEP_MS;
      // Paced so that a run of a few seconds spans some tens of block ranges, not thousands.
      Thread.sleep(2);
    }
  }
}
