package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SeriesSet;
import dev.infermon.tsdb.wal.ReplaySink;
import dev.infermon.tsdb.wal.WalReplay;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why replay adds series out of id order, and that it no longer pays for it: after a head
 * compaction the log starts with a checkpoint, which lists the head's series in its table's order
 * (by label hash), not by reference.
 */
class TsdbReplayOrderTest {
  static final long RANGE = 10_000;
  static final int SERIES = 3_000;

  @TempDir Path dir;

  static TsdbOptions options() {
    return TsdbOptions.defaults()
        .withBlockRange(Duration.ofMillis(RANGE))
        .withCompactionInterval(Duration.ofHours(1)) // compact() is called here
        .withRetentionTime(Duration.ZERO);
  }

  static Labels series(int i) {
    return Labels.of(
        "__name__", "m" + i % 3, "job", "vllm", "pod", "p" + i / 10, "n", Integer.toString(i % 10));
  }

  /** Two ranges of one sample per series and second, then a head compaction and checkpoint. */
  private void writeCheckpointedLog() throws Exception {
    try (Tsdb db = Tsdb.open(dir, options())) {
      for (long t = 0; t < 2 * RANGE; t += 1_000) {
        Appender app = db.appender();
        for (int i = 0; i < SERIES; i++) {
          app.append(series(i), t, i);
        }
        app.commit();
      }
      db.compact();
      assertThat(db.blocks()).as("a block was cut, so the log has a checkpoint").hasSize(1);
    }
  }

  @Test
  void theCheckpointListsSeriesOutOfReferenceOrder() throws Exception {
    writeCheckpointedLog();
    List<Long> refs = new ArrayList<>();
    ReplaySink sink =
        new ReplaySink() {
          @Override
          public void series(long ref, Labels labels) {
            refs.add(ref);
          }

          @Override
          public boolean sample(long ref, long t, double v) {
            return true;
          }
        };
    assertThat(WalReplay.replay(dir.resolve(Tsdb.WAL_DIR), Long.MIN_VALUE, sink).checkpoint())
        .isGreaterThanOrEqualTo(0);

    int descents = 0;
    for (int i = 1; i < refs.size(); i++) {
      descents += refs.get(i) < refs.get(i - 1) ? 1 : 0;
    }
    assertThat(refs).hasSize(SERIES);
    // By hash, about every second record names a lower reference than the one before.
    assertThat(descents).isGreaterThan(SERIES / 4);
  }

  @Test
  void openingACheckpointedLogCopiesNoPostingsListAndIndexesEverySeries() throws Exception {
    writeCheckpointedLog();
    try (Tsdb db = Tsdb.open(dir, options())) {
      assertThat(db.head().postingsCopyingInserts()).isZero();
      assertThat(selected(db, Matcher.equal("job", "vllm"))).hasSize(SERIES);
      List<Labels> pod7 = selected(db, Matcher.equal("pod", "p7"));
      assertThat(pod7).hasSize(10).allMatch(l -> l.get("pod").equals("p7"));
      assertThat(selected(db, Matcher.metricName("m1"))).hasSize(SERIES / 3);

      // After the replay, a new series is indexed in order as before.
      Appender app = db.appender();
      app.append(Labels.of("__name__", "m1", "job", "vllm", "pod", "new"), 3 * RANGE, 1);
      app.commit();
      assertThat(selected(db, Matcher.equal("job", "vllm"))).hasSize(SERIES + 1);
    }
  }

  /** The labels of the head series selected, in the order the postings gave them. */
  private static List<Labels> selected(Tsdb db, Matcher m) {
    List<Labels> out = new ArrayList<>();
    try (Querier q = db.querier()) {
      SeriesSet ss = q.select(false, Long.MIN_VALUE, Long.MAX_VALUE, List.of(m));
      while (ss.next()) {
        out.add(ss.at().labels());
      }
    }
    return out;
  }
}
