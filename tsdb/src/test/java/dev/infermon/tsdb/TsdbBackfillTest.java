package dev.infermon.tsdb;

import static dev.infermon.tsdb.TsdbCompactionTest.append;
import static dev.infermon.tsdb.TsdbCompactionTest.assertContiguous;
import static dev.infermon.tsdb.TsdbCompactionTest.options;
import static dev.infermon.tsdb.TsdbCompactionTest.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Backfill;
import dev.infermon.storage.OutOfBoundsException;
import dev.infermon.storage.Querier;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import dev.infermon.tsdb.block.BlockMeta;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Tsdb#backfill}: samples older than the head's appendable window, written as a block that
 * overlaps the head's range and its blocks; read at once, kept over a reopen without costing the
 * head's samples that only the write-ahead log holds, merged by compaction. 10-second blocks.
 */
class TsdbBackfillTest {
  private static final List<Matcher> OLD = List.of(Matcher.metricName("old"));

  @TempDir Path dir;

  /** Series {@code old{k}} with one sample a second in {@code [from, to)}, value = t / 1000 + k. */
  private static List<Backfill.Samples> old(long from, long to, int series) {
    List<Backfill.Samples> out = new ArrayList<>();
    for (int k = 0; k < series; k++) {
      int n = (int) ((to - from) / 1_000);
      long[] ts = new long[n];
      double[] vs = new double[n];
      for (int i = 0; i < n; i++) {
        ts[i] = from + i * 1_000L;
        vs[i] = ts[i] / 1_000.0 + k;
      }
      out.add(new Backfill.Samples(Labels.of("__name__", "old", "k", "" + k), ts, vs));
    }
    return out;
  }

  private static void assertOld(Tsdb db, long from, long to, int series) {
    Map<Labels, List<Sample>> all;
    try (Querier q = db.querier()) {
      all = Samples.readAll(q.select(true, Long.MIN_VALUE, Long.MAX_VALUE, OLD));
    }
    assertThat(all).hasSize(series);
    for (Backfill.Samples s : old(from, to, series)) {
      List<Sample> want = new ArrayList<>();
      long[] ts = s.timestamps();
      double[] vs = s.values();
      for (int i = 0; i < ts.length; i++) {
        want.add(Sample.of(ts[i], vs[i]));
      }
      assertThat(all.get(s.labels())).as(s.labels().toString()).isEqualTo(want);
    }
  }

  @Test
  void aBackfilledBlockIsReadAtOnceAndKeepsTheHeadsLoggedSamplesOverAReopen() throws Exception {
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, 100_000, 114_000); // a head of 14 s: under 1.5 block ranges, nothing is cut
      long window = db.appendableMinTime();
      assertThat(window).isEqualTo(108_000);
      Appender app = db.appender();
      assertThatThrownBy(() -> app.append(Labels.of("__name__", "old", "k", "0"), 90_000, 1))
          .isInstanceOf(OutOfBoundsException.class);
      app.rollback();

      assertThat(db.backfill(90_000, window, old(90_000, window, 2))).isTrue();
      assertOld(db, 90_000, window, 2);
      assertContiguous(readAll(db), 100_000, 114_000);
      assertThat(db.blocks()).hasSize(1);
      assertThat(db.blocks().get(0).compaction().backfilled()).isTrue();
      assertThat(db.appendableMinTime()).as("the window is the head's").isEqualTo(window);
      assertThat(db.backfill(0, 1_000, List.of())).as("nothing to write").isFalse();
    }
    try (Tsdb db = Tsdb.open(dir, options())) {
      // the block ends at 108 s; the head's samples from 100 s on are only in the log
      assertContiguous(readAll(db), 100_000, 114_000);
      assertOld(db, 90_000, 108_000, 2);
      assertThat(db.appendableMinTime()).isEqualTo(108_000);
      assertThat(db.blocks().get(0).compaction().backfilled()).as("meta.json keeps it").isTrue();
    }
  }

  @Test
  void compactionMergesTheOverlappingBlocks() throws Exception {
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, 100_000, 114_000);
      db.backfill(85_000, 108_000, old(85_000, 108_000, 3));
      append(db, 114_000, 135_000);
      db.compact();
      List<BlockMeta> blocks = db.blocks();
      assertThat(blocks).hasSizeGreaterThan(0);
      for (int i = 1; i < blocks.size(); i++) {
        assertThat(blocks.get(i).minTime())
            .as("no overlap left: %s", blocks)
            .isGreaterThanOrEqualTo(blocks.get(i - 1).maxTime());
      }
      // merged with the head's blocks, which end later: the merge's end is the head's
      assertThat(blocks.stream().filter(b -> b.compaction().backfilled())).isEmpty();
      assertContiguous(readAll(db), 100_000, 135_000);
      assertOld(db, 85_000, 108_000, 3);
    }
    try (Tsdb db = Tsdb.open(dir, options())) {
      assertContiguous(readAll(db), 100_000, 135_000);
      assertOld(db, 85_000, 108_000, 3);
    }
  }

  @Test
  void aMergeEndingWithABackfilledBlockIsOneItself() {
    BlockMeta.Stats st = new BlockMeta.Stats(1, 1, 1);
    String a = dev.infermon.tsdb.block.Ulid.next();
    String b = dev.infermon.tsdb.block.Ulid.next();
    BlockMeta head = new BlockMeta(a, 0, 10, st, BlockMeta.Compaction.head(a), 1);
    BlockMeta late = new BlockMeta(b, 5, 20, st, BlockMeta.Compaction.backfill(b), 1);
    BlockMeta early = new BlockMeta(b, 0, 8, st, BlockMeta.Compaction.backfill(b), 1);
    assertThat(BlockMeta.Compaction.merged(List.of(head, late)).backfilled()).isTrue();
    assertThat(BlockMeta.Compaction.merged(List.of(head, early)).backfilled()).isFalse();
    assertThat(BlockMeta.Compaction.merged(List.of(early, late)).backfilled()).isTrue();
  }
}
