package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Querier;
import dev.infermon.storage.testing.Samples;
import dev.infermon.tsdb.block.BlockMeta;
import dev.infermon.tsdb.block.CorruptBlockException;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A damaged block never stops the database: damage found when the block is opened skips the block
 * with an error naming the file (the other blocks and the head stay queryable, the directory is
 * left for inspection); damage found only when data is read fails that query with a {@link
 * CorruptBlockException} naming the file.
 */
class CorruptBlockTest {
  @TempDir Path dir;
  private BlockMeta victim;

  @BeforeEach
  void writeBlocks() throws Exception {
    try (Tsdb db = Tsdb.open(dir, TsdbCompactionTest.options())) {
      TsdbCompactionTest.append(db, 0, 30_000);
      db.compact();
      assertThat(db.blocks()).hasSize(2);
      victim = db.blocks().get(0);
    }
  }

  /** Where the damage goes, and the file the error must name. */
  record Damage(String name, String file, Edit edit) {
    @Override
    public String toString() {
      return name;
    }
  }

  @FunctionalInterface
  interface Edit {
    void apply(Path blockDir) throws IOException;
  }

  static Stream<Damage> openTimeDamages() {
    return Stream.of(
        new Damage("meta.json not JSON", "meta.json", d -> write(d.resolve("meta.json"), "{oops")),
        new Damage(
            "meta.json of another block",
            "meta.json",
            d ->
                write(
                    d.resolve("meta.json"),
                    Files.readString(d.resolve("meta.json"))
                        .replace(d.getFileName().toString(), "01ARZ3NDEKTSV4RRFFQ69G5FAV"))),
        new Damage("index truncated", "index", d -> truncate(d.resolve("index"), 20)),
        new Damage("index magic", "index", d -> flip(d.resolve("index"), 0)),
        new Damage("index table of contents", "index", d -> flipFromEnd(d.resolve("index"), 10)),
        new Damage("index symbol table", "index", d -> flip(d.resolve("index"), 14)),
        new Damage(
            "index postings offset table",
            "index",
            d -> flip(d.resolve("index"), tocEntry(d.resolve("index"), 3) + 10)),
        new Damage(
            "chunks directory missing",
            "chunks",
            d -> FileUtil.deleteRecursively(d.resolve("chunks"))),
        new Damage("chunk segment magic", "000001", d -> flip(d.resolve("chunks/000001"), 1)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("openTimeDamages")
  void aBlockDamagedWhereOpeningLooksIsSkippedWithTheFileNamed(Damage d) throws Exception {
    Path blockDir = dir.resolve(victim.ulid());
    d.edit().apply(blockDir);
    try (Tsdb db = Tsdb.open(dir, TsdbCompactionTest.options())) {
      assertThat(db.skippedBlocks())
          .singleElement()
          .asString()
          .contains(blockDir.toString(), d.file());
      assertThat(db.blocks()).extracting(BlockMeta::ulid).doesNotContain(victim.ulid());
      assertThat(Files.exists(blockDir)).as("left for inspection").isTrue();
      try (Querier q = db.querier()) {
        assertThat(
                Samples.readAll(q.select(true, 0, Long.MAX_VALUE, TsdbCompactionTest.ALL))
                    .get(TsdbCompactionTest.series(0)))
            .as("the other block and the head still answer")
            .isNotEmpty()
            .allMatch(s -> s.t() >= victim.maxTime());
      }
    }
  }

  static Stream<Damage> readTimeDamages() {
    return Stream.of(
        new Damage(
            "series entry",
            "index",
            d -> flip(d.resolve("index"), tocEntry(d.resolve("index"), 1) + 3)),
        new Damage("chunk data", "000001", d -> flip(d.resolve("chunks/000001"), 8 + 6)),
        new Damage(
            // the last list (of i="2") ends just before the postings offset table
            "postings list",
            "index",
            d -> flip(d.resolve("index"), tocEntry(d.resolve("index"), 3) - 6)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("readTimeDamages")
  void damageFoundWhileReadingFailsTheQueryNamingTheFile(Damage d) throws Exception {
    Path blockDir = dir.resolve(victim.ulid());
    d.edit().apply(blockDir);
    try (Tsdb db = Tsdb.open(dir, TsdbCompactionTest.options());
        Querier q = db.querier()) {
      assertThat(db.skippedBlocks()).isEmpty();
      assertThatThrownBy(
              () ->
                  Samples.readAll(
                      q.select(
                          true,
                          0,
                          victim.maxTime() - 1,
                          List.of(Matcher.metricName("m"), Matcher.regex("i", "0|1|2")))))
          .isInstanceOf(CorruptBlockException.class)
          .hasMessageContaining(blockDir.toString())
          .hasMessageContaining(d.file());
    }
  }

  /** The i-th 8-byte offset of the index's table of contents. */
  static long tocEntry(Path index, int i) throws IOException {
    try (FileChannel ch = FileChannel.open(index)) {
      ByteBuffer b = ByteBuffer.allocate(8);
      ch.read(b, ch.size() - 36 + 8L * i);
      return b.getLong(0);
    }
  }

  static void write(Path p, String s) throws IOException {
    Files.writeString(p, s);
  }

  static void truncate(Path p, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }

  static void flipFromEnd(Path p, long back) throws IOException {
    flip(p, Files.size(p) - back);
  }

  static void flip(Path p, long offset) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, offset);
      one.put(0, (byte) (one.get(0) ^ 0x5A));
      one.rewind();
      ch.write(one, offset);
    }
  }
}
