package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.StorageException;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import dev.infermon.tsdb.block.Block;
import dev.infermon.tsdb.block.BlockMeta;
import dev.infermon.tsdb.block.Compactor;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Head compaction, block compaction, retention and start-up clean-up with 10-second blocks. */
class TsdbCompactionTest {
  static final long RANGE = 10_000;
  static final int SERIES = 3;
  static final List<Matcher> ALL = List.of(Matcher.metricName("m"));

  @TempDir Path dir;

  static TsdbOptions options() {
    return TsdbOptions.defaults()
        .withBlockRange(Duration.ofMillis(RANGE))
        .withCompactionInterval(Duration.ofHours(1)) // tests call compact() themselves
        .withRetentionTime(Duration.ZERO);
  }

  static Labels series(int i) {
    return Labels.of("__name__", "m", "i", Integer.toString(i));
  }

  /** One sample per series per second in {@code [from, to)}; value = time in seconds + series. */
  static void append(Tsdb db, long from, long to) {
    for (long t = from; t < to; t += 1_000) {
      Appender app = db.appender();
      for (int i = 0; i < SERIES; i++) {
        app.append(series(i), t, t / 1_000.0 + i);
      }
      app.commit();
    }
  }

  static Map<Labels, List<Sample>> readAll(Tsdb db) {
    try (Querier q = db.querier()) {
      return Samples.readAll(q.select(true, Long.MIN_VALUE, Long.MAX_VALUE, ALL));
    }
  }

  static void assertContiguous(Map<Labels, List<Sample>> all, long from, long to) {
    assertThat(all).hasSize(SERIES);
    for (int i = 0; i < SERIES; i++) {
      List<Sample> s = all.get(series(i));
      assertThat(s).hasSize((int) ((to - from) / 1_000));
      for (int k = 0; k < s.size(); k++) {
        long t = from + k * 1_000L;
        assertThat(s.get(k)).isEqualTo(Sample.of(t, t / 1_000.0 + i));
      }
    }
  }

  private int blockDirs() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return (int) s.filter(p -> p.getFileName().toString().length() == 26).count();
    }
  }

  @Test
  void headIsCutIntoAlignedBlocksWhichAreMergedAndNothingIsLostOrDoubled() throws Exception {
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, 0, 100_000);
      db.compact();
      List<BlockMeta> blocks = db.blocks();
      assertThat(blocks).isNotEmpty();
      for (int i = 1; i < blocks.size(); i++) {
        assertThat(blocks.get(i).minTime())
            .as("blocks do not overlap")
            .isGreaterThanOrEqualTo(blocks.get(i - 1).maxTime());
      }
      assertThat(blocks).anyMatch(b -> b.compaction().level() >= 2);
      assertThat(blocks.get(0).minTime()).isZero();
      assertThat(blocks).allMatch(b -> b.minTime() % RANGE == 0 && b.maxTime() % RANGE == 0);
      long blocksEnd = blocks.get(blocks.size() - 1).maxTime();
      assertThat(db.headStats().minTime()).isGreaterThanOrEqualTo(blocksEnd);
      assertThat(db.headStats().maxTime() - db.headStats().minTime())
          .as("head spans at most 1.5 block ranges after compaction")
          .isLessThanOrEqualTo(RANGE * 3 / 2);
      assertThat(blockDirs()).as("merged parents are deleted").isEqualTo(blocks.size());
      assertContiguous(readAll(db), 0, 100_000);
      CompactionStats stats = db.compactionStats();
      assertThat(stats.headCompactions()).isGreaterThanOrEqualTo(blocks.size());
      assertThat(stats.blockCompactions()).isPositive();
      assertThat(stats.failedCompactions()).isZero();
    }
    try (Tsdb db = Tsdb.open(dir, options())) {
      assertContiguous(readAll(db), 0, 100_000);
      append(db, 100_000, 130_000);
      db.compact();
      assertContiguous(readAll(db), 0, 130_000);
    }
  }

  @Test
  void timeRetentionDeletesBlocksAFullPeriodBehindTheNewest() throws Exception {
    try (Tsdb db = Tsdb.open(dir, options().withRetentionTime(Duration.ofSeconds(30)))) {
      append(db, 0, 100_000);
      db.compact();
      List<BlockMeta> blocks = db.blocks();
      long newest = blocks.get(blocks.size() - 1).maxTime();
      assertThat(blocks).allMatch(b -> newest - b.maxTime() < 30_000);
      long oldest = blocks.get(0).minTime();
      assertThat(oldest).isPositive();
      Map<Labels, List<Sample>> all = readAll(db);
      assertThat(all.get(series(0)).get(0).t()).isEqualTo(oldest);
      assertThat(blockDirs()).isEqualTo(blocks.size());
      assertThat(db.compactionStats().retentionDeletedBlocks()).isPositive();
    }
  }

  /** A reload: the retention set on an open database applies from the next pass on. */
  @Test
  void retentionSetWhileOpenAppliesFromTheNextPass() throws Exception {
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, 0, 100_000);
      db.compact();
      assertThat(db.blocks().get(0).minTime()).as("no retention: all kept").isZero();
      db.setRetention(Duration.ofSeconds(30), 0);
      db.compact();
      List<BlockMeta> blocks = db.blocks();
      long newest = blocks.get(blocks.size() - 1).maxTime();
      assertThat(blocks).allMatch(b -> newest - b.maxTime() < 30_000);
      assertThat(blocks.get(0).minTime()).isPositive();
      assertThat(db.compactionStats().retentionDeletedBlocks()).isPositive();
      assertThatThrownBy(() -> db.setRetention(Duration.ofSeconds(-1), 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("-1");
    }
  }

  @Test
  void sizeRetentionKeepsBlocksAndLogUnderTheLimit() throws Exception {
    long limit;
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, 0, 100_000);
      db.compact();
      limit = FileUtil.size(dir.resolve(Tsdb.WAL_DIR));
      for (BlockMeta b : db.blocks().subList(db.blocks().size() - 1, db.blocks().size())) {
        limit += FileUtil.size(dir.resolve(b.ulid()));
      }
    }
    try (Tsdb db = Tsdb.open(dir, options().withRetentionBytes(limit + 100))) {
      db.compact();
      assertThat(db.blocks()).as("only the newest block fits").hasSize(1);
      assertThat(blockDirs()).isEqualTo(1);
    }
  }

  @Test
  void anOpenQuerierKeepsReadingBlocksThatRetentionDeletes() throws Exception {
    TsdbOptions opts =
        options()
            .withRetentionTime(Duration.ofSeconds(30))
            .withReaderDrainTimeout(Duration.ofMillis(100)); // q stays open across compactions
    try (Tsdb db = Tsdb.open(dir, opts)) {
      append(db, 0, 40_000);
      db.compact();
      assertThat(db.blocks().get(0).minTime()).isZero();
      Querier q = db.querier();
      append(db, 40_000, 100_000);
      db.compact();
      assertThat(db.blocks().get(0).minTime()).as("early blocks deleted").isGreaterThan(0);
      Map<Labels, List<Sample>> seen = Samples.readAll(q.select(true, 0, 19_999, ALL));
      assertThat(seen.get(series(1))).hasSize(20).startsWith(Sample.of(0, 1.0));
      q.close();
      assertThat(blockDirs()).isEqualTo(db.blocks().size());
    }
  }

  @Test
  void startUpDeletesInterruptedWritesAndParentsOfACompactedBlock() throws Exception {
    List<BlockMeta> before;
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, 0, 40_000);
      db.compact();
      before = db.blocks();
    }
    // Merge two blocks but "crash" before deleting the parents; leave a half-written block too.
    Block a = Block.open(dir.resolve(before.get(0).ulid()));
    Block b = Block.open(dir.resolve(before.get(1).ulid()));
    BlockMeta merged = Compactor.compact(dir, List.of(a, b)).orElseThrow();
    a.close();
    b.close();
    Files.createDirectories(dir.resolve("01ARZ3NDEKTSV4RRFFQ69G5FAV.tmp-for-creation/chunks"));

    try (Tsdb db = Tsdb.open(dir, options())) {
      assertThat(db.blocks()).extracting(BlockMeta::ulid).contains(merged.ulid());
      assertThat(db.blocks())
          .extracting(BlockMeta::ulid)
          .doesNotContain(before.get(0).ulid(), before.get(1).ulid());
      assertThat(Files.exists(dir.resolve(before.get(0).ulid()))).isFalse();
      assertThat(Files.exists(dir.resolve("01ARZ3NDEKTSV4RRFFQ69G5FAV.tmp-for-creation")))
          .isFalse();
      assertContiguous(readAll(db), 0, 40_000);
    }
  }

  @Test
  void aSuccessfulCompactionDeletesWhatEarlierFailedBlockWritesLeft() throws Exception {
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, 0, 5_000);
      // As a block write that failed on a full disk could leave it, while the process runs on.
      Files.createDirectories(dir.resolve("01ARZ3NDEKTSV4RRFFQ69G5FAV.tmp-for-creation/chunks"));
      append(db, 5_000, 40_000);
      db.compact();
      assertThat(db.blocks()).isNotEmpty();
      assertThat(Files.exists(dir.resolve("01ARZ3NDEKTSV4RRFFQ69G5FAV.tmp-for-creation")))
          .isFalse();
    }
  }

  @Test
  void aCommitThatMakesTheHeadCompactableStartsACompactionWithoutWaitingForTheInterval()
      throws Exception {
    try (Tsdb db = Tsdb.open(dir, options())) { // the interval is an hour
      append(db, 0, 20_000); // spans 19 s: more than 1.5 ranges of 10 s
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (db.blocks().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(db.blocks()).as("a block cut after the head spanned 1.5 ranges").isNotEmpty();
      assertContiguous(readAll(db), 0, 20_000);
    }
  }

  @Test
  void aSecondOpenOfTheSameDirectoryIsRefused() throws Exception {
    try (Tsdb db = Tsdb.open(dir, options())) {
      assertThatThrownBy(() -> Tsdb.open(dir, options()))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("in use by another process");
      assertThat(db.startTime()).isEqualTo(Long.MAX_VALUE);
    }
    try (Tsdb db = Tsdb.open(dir, options())) {
      append(db, 5_000, 6_000);
      assertThat(db.startTime()).isEqualTo(5_000);
    }
  }
}
