package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import dev.infermon.tsdb.block.Block;
import dev.infermon.tsdb.block.BlockMeta;
import dev.infermon.tsdb.block.BlockWriter;
import dev.infermon.tsdb.fileutil.FileUtil;
import dev.infermon.tsdb.wal.Checkpoint;
import dev.infermon.tsdb.wal.ReplaySink;
import dev.infermon.tsdb.wal.ReplayStats;
import dev.infermon.tsdb.wal.WalBatch;
import dev.infermon.tsdb.wal.WalReplay;
import dev.infermon.tsdb.wal.WalWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the on-disk formats ({@code docs/format/}): a tiny data directory written once by this class
 * ({@code src/test/resources/format-fixtures/}: a block and a write-ahead log with a checkpoint)
 * must be read by the current code with exactly the content below, and writing the same content
 * again must produce the same bytes. A format change fails here; it then needs a new format version
 * and a new fixture, not an edit of this one.
 *
 * <p>To regenerate after a deliberate format change: run with {@code
 * -Dinfermon.regenerateFormatFixtures=<repo>/tsdb/src/test/resources/format-fixtures}.
 */
class FormatFixtureTest {
  static final long T0 = 1_700_000_000_000L;
  static final long BLOCK_MAXT = T0 + 2 * 3_600_000L;

  private static Path fixtures;

  @TempDir Path tmp;

  /** The block's content: two chunks for "up", special values, a single sample. */
  static SortedMap<Labels, List<Sample>> blockData() {
    SortedMap<Labels, List<Sample>> m = new TreeMap<>();
    List<Sample> up = new ArrayList<>();
    for (int k = 0; k < 130; k++) {
      up.add(Sample.of(T0 + k * 15_000L, k % 7 == 0 ? 0 : 1));
    }
    m.put(Labels.of("__name__", "up", "job", "vllm", "pod", "a"), up);
    m.put(
        Labels.of("__name__", "vllm:num_requests_running", "pod", "a"),
        List.of(
            Sample.of(T0, 0),
            Sample.of(T0 + 15_000, 2.5),
            Sample.of(T0 + 30_000, Double.NaN),
            Sample.stale(T0 + 45_000),
            Sample.of(T0 + 61_000, -3e-9)));
    m.put(
        Labels.of("__name__", "x_total", "le", "+Inf"),
        List.of(Sample.of(T0 + 7_200_000 - 1, 1e300)));
    return m;
  }

  /** The log: series 1 and 2 in segment 0, more samples in segment 1, then a checkpoint of 0. */
  static void writeWal(Path walDir) throws IOException {
    try (WalWriter w = WalWriter.open(walDir, 1 << 20)) {
      WalBatch b = new WalBatch();
      b.series(1, Labels.of("__name__", "up", "pod", "a"));
      b.series(2, Labels.of("__name__", "vllm:gpu_cache_usage_perc", "pod", "a"));
      b.samples(new long[] {1, 2}, new long[] {T0, T0}, new double[] {1, 0.25}, 2);
      w.write(b);
      b.samples(new long[] {1, 2}, new long[] {T0 + 15_000, T0 + 15_001}, new double[] {0, 0.5}, 2);
      w.write(b);
      int through = w.nextSegment();
      b.series(3, Labels.of("__name__", "new_series"));
      b.samples(
          new long[] {3, 1, 2},
          new long[] {T0 + 30_000, T0 + 30_000, T0 + 30_000},
          new double[] {StaleNaN.VALUE, Double.NaN, -1},
          3);
      w.write(b);
      Checkpoint.create(
          walDir,
          through,
          v -> {
            v.accept(1, Labels.of("__name__", "up", "pod", "a"));
            v.accept(2, Labels.of("__name__", "vllm:gpu_cache_usage_perc", "pod", "a"));
          },
          T0 + 1);
    }
  }

  /** What replaying the log yields, in order. */
  static final List<String> WAL_RECORDS =
      List.of(
          "series 1 up{pod=\"a\"}",
          "series 2 vllm:gpu_cache_usage_perc{pod=\"a\"}",
          "sample 1 1700000015000 0.0",
          "sample 2 1700000015001 0.5",
          "series 3 new_series{}",
          "sample 3 1700000030000 stale",
          "sample 1 1700000030000 NaN",
          "sample 2 1700000030000 -1.0");

  @BeforeAll
  static void locate() throws Exception {
    String regen = System.getProperty("infermon.regenerateFormatFixtures");
    if (regen != null && !regen.isEmpty()) {
      Path out = Path.of(regen);
      FileUtil.deleteRecursively(out);
      Files.createDirectories(out);
      BlockWriter.writeHeadBlock(out, new MapSeries(blockData()), T0, BLOCK_MAXT);
      writeWal(out.resolve("wal"));
    }
    fixtures = Path.of(FormatFixtureTest.class.getResource("/format-fixtures").toURI());
  }

  private Path blockDir() throws IOException {
    try (Stream<Path> s = Files.list(fixtures)) {
      return s.filter(p -> p.getFileName().toString().length() == 26).findFirst().orElseThrow();
    }
  }

  @Test
  void theBlockFixtureReadsWithItsExactMetaAndContent() throws Exception {
    Path dir = blockDir();
    BlockMeta meta = BlockMeta.read(dir);
    assertThat(meta.ulid()).isEqualTo(dir.getFileName().toString());
    assertThat(meta.minTime()).isEqualTo(T0);
    assertThat(meta.maxTime()).isEqualTo(BLOCK_MAXT);
    assertThat(meta.stats()).isEqualTo(new BlockMeta.Stats(136, 3, 4));
    assertThat(meta.compaction().level()).isEqualTo(1);
    assertThat(meta.compaction().sources()).containsExactly(meta.ulid());
    assertThat(meta.version()).isEqualTo(1);

    Block block = Block.open(dir);
    try (Querier q = block.querier()) {
      assertThat(
              Samples.readAll(
                  q.select(true, T0, BLOCK_MAXT, List.of(Matcher.regex("__name__", ".+")))))
          .isEqualTo(blockData());
      assertThat(q.labelNames(T0, BLOCK_MAXT, List.of()))
          .containsExactly("__name__", "job", "le", "pod");
      assertThat(q.labelValues("pod", T0, BLOCK_MAXT, List.of())).containsExactly("a");
    } finally {
      block.close();
    }
  }

  @Test
  void writingTheSameBlockAgainGivesTheSameIndexAndChunkBytes() throws Exception {
    BlockMeta again =
        BlockWriter.writeHeadBlock(tmp, new MapSeries(blockData()), T0, BLOCK_MAXT).orElseThrow();
    Path fresh = tmp.resolve(again.ulid());
    Path fixture = blockDir();
    assertThat(Files.readAllBytes(fresh.resolve("index")))
        .isEqualTo(Files.readAllBytes(fixture.resolve("index")));
    assertThat(Files.readAllBytes(fresh.resolve("chunks/000001")))
        .isEqualTo(Files.readAllBytes(fixture.resolve("chunks/000001")));
  }

  @Test
  void theLogFixtureReplaysExactlyItsRecords() throws Exception {
    Path wal = copy(fixtures.resolve("wal"), tmp.resolve("wal"));
    List<String> got = new ArrayList<>();
    ReplayStats stats =
        WalReplay.replay(
            wal,
            Long.MIN_VALUE,
            new ReplaySink() {
              @Override
              public void series(long ref, Labels labels) {
                got.add("series " + ref + " " + labels);
              }

              @Override
              public boolean sample(long ref, long t, double v) {
                got.add("sample " + ref + " " + t + " " + (StaleNaN.is(v) ? "stale" : v));
                return true;
              }
            });
    assertThat(got).isEqualTo(WAL_RECORDS);
    assertThat(stats.repairs()).isEmpty();
    assertThat(stats.checkpoint()).isZero();
  }

  @Test
  void writingTheSameLogAgainGivesTheSameBytes() throws Exception {
    Path fresh = tmp.resolve("wal");
    writeWal(fresh);
    Path fixture = fixtures.resolve("wal");
    for (String f : List.of("checkpoint.00000000/00000000", "00000001")) {
      assertThat(Files.readAllBytes(fresh.resolve(f)))
          .as(f)
          .isEqualTo(Files.readAllBytes(fixture.resolve(f)));
    }
  }

  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path d = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(d);
        } else {
          Files.copy(p, d, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return to;
  }

  /** A sorted map as a series set. */
  static final class MapSeries implements SeriesSet {
    private final Iterator<Map.Entry<Labels, List<Sample>>> it;
    private Series at;

    MapSeries(SortedMap<Labels, List<Sample>> data) {
      it = data.entrySet().iterator();
    }

    @Override
    public boolean next() {
      if (!it.hasNext()) {
        return false;
      }
      Map.Entry<Labels, List<Sample>> e = it.next();
      at =
          new Series() {
            @Override
            public Labels labels() {
              return e.getKey();
            }

            @Override
            public SampleIterator iterator() {
              return new SampleIterator() {
                int i = -1;

                @Override
                public boolean next() {
                  return ++i < e.getValue().size();
                }

                @Override
                public boolean seek(long t) {
                  i = Math.max(i, 0);
                  while (i < e.getValue().size() && e.getValue().get(i).t() < t) {
                    i++;
                  }
                  return i < e.getValue().size();
                }

                @Override
                public long timestamp() {
                  return e.getValue().get(i).t();
                }

                @Override
                public double value() {
                  return e.getValue().get(i).v();
                }
              };
            }
          };
      return true;
    }

    @Override
    public Series at() {
      return at;
    }
  }
}
