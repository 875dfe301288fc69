package dev.infermon.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.tsdb.chunkenc.XorChunk;
import dev.infermon.tsdb.chunkenc.XorIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The head's completed-chunk store, on the heap and in memory-mapped segment files. */
class ChunkStoreTest {
  @TempDir Path tmp;

  private ChunkStore store(String kind) throws IOException {
    return switch (kind) {
      case "heap" -> ChunkStore.onHeap();
      case "files" -> ChunkStore.inDirectory(tmp.resolve("chunks"), 4096);
      default -> throw new IllegalArgumentException(kind);
    };
  }

  /** A chunk of {@code n} samples from t, as the head would cut it. */
  private static XorChunk chunk(long t, int n, Random r) {
    XorChunk c = XorChunk.create();
    for (int i = 0; i < n; i++) {
      c.append(t + i * 5000L, r.nextGaussian());
    }
    return c;
  }

  private record Stored(long ref, byte[] bytes, long maxTime) {}

  private static List<Stored> fill(ChunkStore s, int chunks, Random r) {
    List<Stored> out = new ArrayList<>();
    for (int i = 0; i < chunks; i++) {
      // 1 to 600 samples: lengths on both sides of the one-byte prefix, some above a 4 KiB page.
      XorChunk c = chunk(i * 1_000_000L, 1 + r.nextInt(i % 10 == 0 ? 600 : 60), r);
      out.add(new Stored(s.put(c.bytes(), 0, c.length(), c.maxTime()), c.bytes(), c.maxTime()));
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "files"})
  void everyChunkReadsBackAsWritten(String kind) throws IOException {
    try (ChunkStore s = store(kind)) {
      List<Stored> stored = fill(s, 300, new Random(7));
      ChunkStore.View v = s.view();
      for (Stored c : stored) {
        assertThat(v.bytes(c.ref())).isEqualTo(c.bytes());
        XorIterator want = XorIterator.over(c.bytes(), 0, c.bytes().length);
        XorIterator got = v.iterator(c.ref());
        while (want.next()) {
          assertThat(got.next()).isTrue();
          assertThat(got.timestamp()).isEqualTo(want.timestamp());
          assertThat(Double.doubleToRawLongBits(got.value()))
              .isEqualTo(Double.doubleToRawLongBits(want.value()));
        }
        assertThat(got.next()).isFalse();
      }
      assertThat(s.pages()).as("several pages").isGreaterThan(1);

      // One decoder moved from chunk to chunk, segment chunks copied into one scratch array.
      XorIterator reused = v.iterator(stored.get(0).ref());
      byte[] scratch = null;
      for (Stored c : stored) {
        scratch = v.reset(reused, c.ref(), scratch);
        XorIterator want = XorIterator.over(c.bytes(), 0, c.bytes().length);
        while (want.next()) {
          assertThat(reused.next()).isTrue();
          assertThat(reused.timestamp()).isEqualTo(want.timestamp());
          assertThat(Double.doubleToRawLongBits(reused.value()))
              .isEqualTo(Double.doubleToRawLongBits(want.value()));
        }
        assertThat(reused.next()).isFalse();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "files"})
  void truncationDropsLeadingPagesButAnEarlierViewStillReadsThem(String kind) throws IOException {
    try (ChunkStore s = store(kind)) {
      List<Stored> stored = fill(s, 300, new Random(11));
      ChunkStore.View before = s.view();
      int pages = s.pages();
      long mint = stored.get(150).maxTime() + 1;

      int dropped = s.truncateBefore(mint);

      assertThat(dropped).isPositive();
      assertThat(s.pages()).isEqualTo(pages - dropped);
      for (Stored c : stored) {
        assertThat(before.bytes(c.ref())).isEqualTo(c.bytes()); // nothing lost for a reader
      }
      Stored first = stored.get(0);
      assertThatThrownBy(() -> s.view().bytes(first.ref()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("not in pages");
      for (Stored c : stored.subList(151, stored.size())) {
        assertThat(s.view().bytes(c.ref())).isEqualTo(c.bytes());
      }
      assertThat(s.truncateBefore(Long.MAX_VALUE)).as("the page being written stays").isPositive();
      assertThat(s.pages()).isEqualTo(1);
      Stored last = stored.get(stored.size() - 1);
      assertThat(s.view().bytes(last.ref())).isEqualTo(last.bytes());
      XorChunk more = chunk(1L << 40, 30, new Random(1));
      long ref = s.put(more.bytes(), 0, more.length(), more.maxTime());
      assertThat(s.view().bytes(ref)).isEqualTo(more.bytes());
    }
  }

  @org.junit.jupiter.api.Test
  void segmentsAreFilesThatTruncationAndCloseDelete() throws IOException {
    Path dir = tmp.resolve("chunks");
    Files.createDirectories(dir);
    Files.write(dir.resolve("00000042"), new byte[] {1, 2, 3}); // an earlier process's segment
    Files.write(dir.resolve("README"), new byte[] {1}); // not a segment: left alone
    ChunkStore s = ChunkStore.inDirectory(dir, 4096);
    assertThat(segments(dir)).isEmpty();

    List<Stored> stored = fill(s, 200, new Random(3));
    int files = segments(dir).size();
    assertThat(files).isEqualTo(s.pages()).isGreaterThan(2);
    assertThat(s.bytes()).as("written bytes only").isLessThan(files * 4096L + 10_000);

    s.truncateBefore(stored.get(100).maxTime() + 1);
    assertThat(segments(dir)).hasSize(s.pages()).hasSizeLessThan(files);

    s.close();
    assertThat(segments(dir)).isEmpty();
    assertThat(dir.resolve("README")).exists();
  }

  @org.junit.jupiter.api.Test
  void aSegmentThatCannotBeCreatedSendsChunksToTheHeapAndLosesNothing() throws IOException {
    Path dir = tmp.resolve("chunks");
    try (ChunkStore s = ChunkStore.inDirectory(dir, 4096)) {
      List<Stored> stored = new ArrayList<>(fill(s, 20, new Random(5)));
      Files.walk(dir).sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
      stored.addAll(fill(s, 200, new Random(6))); // new segments fail: the directory is gone

      for (Stored c : stored) {
        assertThat(s.view().bytes(c.ref())).isEqualTo(c.bytes());
      }
      assertThat(Files.exists(dir)).isFalse();
    }
  }

  private static List<Path> segments(Path dir) throws IOException {
    try (Stream<Path> ps = Files.list(dir)) {
      return ps.filter(p -> ChunkStore.isSegmentName(p.getFileName().toString())).toList();
    }
  }
}
