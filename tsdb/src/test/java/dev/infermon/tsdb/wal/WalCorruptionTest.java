package dev.infermon.tsdb.wal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A damaged log never stops start-up: replay cuts at the last good record, reports the repair, and
 * yields a prefix of what was written. Three segments are written: A (segment 0), B (1), C (2),
 * whose last commit is C's final record; each case damages them one way and states what must
 * survive.
 */
class WalCorruptionTest {
  @TempDir Path dir;

  private List<String> a;
  private List<String> b;
  private List<String> cButLast;
  private List<String> cLast;

  @BeforeEach
  void writeThreeSegments() throws IOException {
    try (WalWriter w = WalWriter.open(dir, 1 << 20)) {
      a = WalRoundTripTest.writeCommits(w, 30, 1);
      w.nextSegment();
      b = WalRoundTripTest.writeCommits(w, 30, 2);
      w.nextSegment();
      cButLast = WalRoundTripTest.writeCommits(w, 29, 3);
      cLast = WalRoundTripTest.writeCommits(w, 1, 4);
    }
  }

  /** What must survive a damage: exactly, or at least a prefix and at most another. */
  enum Expect {
    A,
    A_B,
    A_B_C_BUT_LAST,
    ALL,
    NOTHING,
    AT_LEAST_A_LESS_THAN_A_B,
    AT_LEAST_A_B_LESS_THAN_ALL
  }

  record Damage(String name, int segment, Op op, long offset, Expect expect) {
    @Override
    public String toString() {
      return name;
    }
  }

  enum Op {
    TRUNCATE,
    TRUNCATE_FROM_END,
    FLIP,
    FLIP_FROM_END,
    APPEND_ZEROS,
    APPEND_GARBAGE,
    DELETE
  }

  static Stream<Damage> damages() {
    return Stream.of(
        new Damage("torn segment header", 2, Op.TRUNCATE, 3, Expect.A_B),
        new Damage("torn first record", 2, Op.TRUNCATE, 20, Expect.A_B),
        new Damage("torn first frame header", 2, Op.TRUNCATE, 12, Expect.A_B),
        new Damage("torn last record", 2, Op.TRUNCATE_FROM_END, 1, Expect.A_B_C_BUT_LAST),
        new Damage(
            "cut in the middle", 2, Op.TRUNCATE_FROM_END, 700, Expect.AT_LEAST_A_B_LESS_THAN_ALL),
        new Damage("bad length of first frame", 2, Op.FLIP, 9, Expect.A_B),
        new Damage("bad checksum of first frame", 2, Op.FLIP, 13, Expect.A_B),
        new Damage("bad payload of last record", 2, Op.FLIP_FROM_END, 3, Expect.A_B_C_BUT_LAST),
        new Damage(
            "bad payload mid-segment", 2, Op.FLIP_FROM_END, 700, Expect.AT_LEAST_A_B_LESS_THAN_ALL),
        new Damage("zeros after the tail", 2, Op.APPEND_ZEROS, 4096, Expect.ALL),
        new Damage("garbage after the tail", 2, Op.APPEND_GARBAGE, 100, Expect.ALL),
        new Damage(
            "bad byte in a middle segment",
            1,
            Op.FLIP_FROM_END,
            500,
            Expect.AT_LEAST_A_LESS_THAN_A_B),
        new Damage("missing middle segment", 1, Op.DELETE, 0, Expect.A),
        new Damage("bad magic of the first segment", 0, Op.FLIP, 0, Expect.NOTHING));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("damages")
  void replayCutsCleanlyReportsTheRepairAndTheLogStaysUsable(Damage d) throws IOException {
    apply(d);

    RecordingSink first = new RecordingSink();
    ReplayStats stats = WalReplay.replay(dir, Long.MIN_VALUE, first);
    assertThat(stats.repairs()).as("repair reported").isNotEmpty();
    List<String> all = concat(a, b, cButLast, cLast);
    assertThat(all.subList(0, first.samples.size()))
        .as("replayed a prefix of what was written")
        .isEqualTo(first.samples);
    switch (d.expect()) {
      case A:
        assertThat(first.samples).isEqualTo(a);
        break;
      case A_B:
        assertThat(first.samples).isEqualTo(concat(a, b));
        break;
      case A_B_C_BUT_LAST:
        assertThat(first.samples).isEqualTo(concat(a, b, cButLast));
        break;
      case ALL:
        assertThat(first.samples).isEqualTo(all);
        break;
      case NOTHING:
        assertThat(first.samples).isEmpty();
        break;
      case AT_LEAST_A_LESS_THAN_A_B:
        assertThat(first.samples.size()).isBetween(a.size(), a.size() + b.size() - 1);
        break;
      case AT_LEAST_A_B_LESS_THAN_ALL:
        assertThat(first.samples.size()).isBetween(a.size() + b.size(), all.size() - 1);
        break;
      default:
        throw new AssertionError(d.expect());
    }

    RecordingSink second = new RecordingSink();
    assertThat(WalReplay.replay(dir, Long.MIN_VALUE, second).repairs())
        .as("the repair is durable: a second start finds nothing to cut")
        .isEmpty();
    assertThat(second.samples).isEqualTo(first.samples);

    List<String> more;
    try (WalWriter w = WalWriter.open(dir, 1 << 20)) {
      more = WalRoundTripTest.writeCommits(w, 3, 99);
    }
    RecordingSink third = new RecordingSink();
    assertThat(WalReplay.replay(dir, Long.MIN_VALUE, third).repairs()).isEmpty();
    assertThat(third.samples).isEqualTo(concat(first.samples, more));
  }

  private void apply(Damage d) throws IOException {
    Path seg = WalFormat.segmentPath(dir, d.segment());
    long size = Files.size(seg);
    switch (d.op()) {
      case TRUNCATE:
        truncate(seg, d.offset());
        break;
      case TRUNCATE_FROM_END:
        truncate(seg, size - d.offset());
        break;
      case FLIP:
        flip(seg, d.offset());
        break;
      case FLIP_FROM_END:
        flip(seg, size - d.offset());
        break;
      case APPEND_ZEROS:
        Files.write(seg, new byte[(int) d.offset()], StandardOpenOption.APPEND);
        break;
      case APPEND_GARBAGE:
        byte[] g = new byte[(int) d.offset()];
        new java.util.Random(5).nextBytes(g);
        Files.write(seg, g, StandardOpenOption.APPEND);
        break;
      case DELETE:
        Files.delete(seg);
        break;
      default:
        throw new AssertionError(d.op());
    }
  }

  private static void truncate(Path p, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
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

  @SafeVarargs
  private static List<String> concat(List<String>... parts) {
    List<String> out = new ArrayList<>();
    for (List<String> p : parts) {
      out.addAll(p);
    }
    return out;
  }
}
