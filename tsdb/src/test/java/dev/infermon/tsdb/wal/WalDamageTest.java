package dev.infermon.tsdb.wal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What replay keeps after each kind of damage to a log shaped like a scrape's: 13 segments of 64
 * KiB, 300 commits of 200 series (one series record, then one samples record each), 5 new series
 * every 10th commit. The loss must be the damaged part only: exactly the samples of frames the
 * damage touched, plus those of series whose only series record it touched; every other sample is
 * replayed, in order, and the repair is durable. The table printed at the end is the figure in
 * tsdb/README.md.
 */
class WalDamageTest {
  private static final Logger log = LoggerFactory.getLogger(WalDamageTest.class);
  private static final int SEGMENT_BYTES = 64 << 10;
  private static final int SERIES = 200;
  private static final int COMMITS = 300;
  private static final Map<String, String> FIGURE = new TreeMap<>();

  @TempDir Path dir;

  /** One written frame: where it is, and for a samples frame the entries it holds. */
  record Frame(int segment, long start, long end, List<String> entries, List<Long> refs) {}

  private final List<Frame> frames = new ArrayList<>();
  private final Map<Long, Frame> seriesFrame = new TreeMap<>();
  private int segments;

  @BeforeEach
  void writeScrapeShapedLog() throws IOException {
    Random r = new Random(24);
    long nextRef = 1;
    try (WalWriter w = WalWriter.open(dir, SEGMENT_BYTES)) {
      for (int c = 0; c < COMMITS; c++) {
        int fresh = c == 0 ? SERIES : c % 10 == 0 ? 5 : 0;
        if (fresh > 0) {
          WalBatch b = new WalBatch();
          List<Long> created = new ArrayList<>();
          for (int i = 0; i < fresh; i++) {
            long ref = nextRef++;
            b.series(ref, Labels.of("__name__", "m" + (ref % 13), "pod", "p" + ref));
            created.add(ref);
          }
          Frame f = write(w, b, List.of(), created);
          for (long ref : created) {
            seriesFrame.put(ref, f);
          }
        }
        int n = (int) nextRef - 1;
        long[] refs = new long[n];
        long[] ts = new long[n];
        double[] vs = new double[n];
        List<String> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          refs[i] = i + 1;
          ts[i] = 1_700_000_000_000L + c * 15_000L;
          vs[i] = r.nextInt(1000) * 0.5;
          entries.add(RecordingSink.entry(refs[i], ts[i], vs[i]));
        }
        WalBatch b = new WalBatch();
        b.samples(refs, ts, vs, n);
        write(w, b, entries, List.of());
      }
      segments = w.currentSegment() + 1;
    }
    assertThat(segments).as("segments written").isEqualTo(13);
  }

  private Frame write(WalWriter w, WalBatch b, List<String> entries, List<Long> refs)
      throws IOException {
    int before = w.currentSegment();
    long start = Files.size(WalFormat.segmentPath(dir, before));
    w.write(b);
    int seg = w.currentSegment();
    if (seg != before) {
      start = WalFormat.SEGMENT_HEADER_SIZE;
    }
    Frame f = new Frame(seg, start, Files.size(WalFormat.segmentPath(dir, seg)), entries, refs);
    frames.add(f);
    return f;
  }

  enum Op {
    FLIP,
    FLIP_SERIES_RECORD,
    ZERO,
    GARBAGE,
    TRUNCATE,
    DELETE,
    APPEND_ZEROS,
    APPEND_GARBAGE
  }

  /**
   * A damage of {@code length} bytes at {@code fraction} of segment {@code segment}'s length plus
   * {@code offset} (a negative segment counts from the last). TRUNCATE keeps the bytes before that
   * position; FLIP_SERIES_RECORD flips bytes in the middle of the segment's last series record.
   */
  record Damage(String name, int segment, Op op, double fraction, int offset, int length) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Damage> damages() {
    return Stream.of(
        new Damage("16 bytes flipped mid-segment", 4, Op.FLIP, 0.5, 0, 16),
        new Damage("segment header flipped (first segment)", 0, Op.FLIP, 0, 0, 4),
        new Damage("segment torn inside its header", -1, Op.TRUNCATE, 0, 3, 0),
        new Damage("segment torn inside its first frame header", -1, Op.TRUNCATE, 0, 12, 0),
        new Damage("segment torn inside its first record", -1, Op.TRUNCATE, 0, 20, 0),
        new Damage("torn tail (last 5 bytes missing)", -1, Op.TRUNCATE, 1, -5, 0),
        new Damage("segment cut in the middle", 3, Op.TRUNCATE, 0.5, 0, 0),
        new Damage("length of a segment's first frame flipped", -1, Op.FLIP, 0, 9, 1),
        new Damage("checksum of a segment's first frame flipped", -1, Op.FLIP, 0, 13, 1),
        new Damage("last record's payload flipped", -1, Op.FLIP, 1, -3, 1),
        new Damage("4 KiB page of zeros mid-segment", 5, Op.ZERO, 0.4, 0, 4096),
        new Damage("4 KiB of random bytes mid-segment", 5, Op.GARBAGE, 0.4, 0, 4096),
        new Damage("middle segment missing", 5, Op.DELETE, 0, 0, 0),
        new Damage("series record of new series flipped", -2, Op.FLIP_SERIES_RECORD, 0, 0, 2),
        new Damage("zeros after the tail", -1, Op.APPEND_ZEROS, 1, 0, 4096),
        new Damage("garbage after the tail", -1, Op.APPEND_GARBAGE, 1, 0, 100));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("damages")
  void replayLosesOnlyTheDamagedPartAndTheRepairIsDurable(Damage d) throws IOException {
    int seg = d.segment() < 0 ? segments + d.segment() : d.segment();
    long[] range = apply(d, seg);
    List<String> expected = survivors(seg, range[0], range[1]);
    List<String> all = survivors(-1, 0, 0);

    RecordingSink first = new RecordingSink();
    ReplayStats stats = WalReplay.replay(dir, Long.MIN_VALUE, first);
    FIGURE.put(
        d.name(),
        String.format(
            Locale.ROOT,
            "| %s | %d | %d (%.1f %%) | %d (%.1f %%) |",
            d.name(),
            all.size(),
            expected.size(),
            100.0 * expected.size() / all.size(),
            first.samples.size(),
            100.0 * first.samples.size() / all.size()));

    assertThat(first.samples).as("everything outside the damage, in order").isEqualTo(expected);
    assertThat(stats.repairs()).as("repair reported").isNotEmpty();
    RecordingSink second = new RecordingSink();
    assertThat(WalReplay.replay(dir, Long.MIN_VALUE, second).repairs())
        .as("the repair is durable: a second start finds nothing to repair")
        .isEmpty();
    assertThat(second.samples).isEqualTo(first.samples);

    List<String> more;
    try (WalWriter w = WalWriter.open(dir, SEGMENT_BYTES)) {
      more = WalRoundTripTest.writeCommits(w, 3, 99);
    }
    RecordingSink third = new RecordingSink();
    assertThat(WalReplay.replay(dir, Long.MIN_VALUE, third).repairs()).isEmpty();
    assertThat(third.samples.subList(0, first.samples.size())).isEqualTo(first.samples);
  }

  @AfterAll
  static void printFigure() {
    StringBuilder b =
        new StringBuilder(
            "\n| damage | samples written | expected kept | kept |\n|---|---|---|---|\n");
    FIGURE.values().forEach(row -> b.append(row).append('\n'));
    log.info("write-ahead log damage figure:{}", b);
  }

  /**
   * Entries whose samples frame and series frame lie outside {@code [from, to)} of {@code seg};
   * {@code seg} -1 for all.
   */
  private List<String> survivors(int seg, long from, long to) {
    List<String> out = new ArrayList<>();
    for (Frame f : frames) {
      if (f.entries().isEmpty() || hit(f, seg, from, to)) {
        continue;
      }
      for (String e : f.entries()) {
        long ref = Long.parseLong(e.substring(0, e.indexOf('@')));
        if (!hit(seriesFrame.get(ref), seg, from, to)) {
          out.add(e);
        }
      }
    }
    return out;
  }

  private static boolean hit(Frame f, int seg, long from, long to) {
    return f.segment() == seg && f.start() < to && from < f.end();
  }

  /** Damages the log; returns the byte range of segment {@code seg} that was touched. */
  private long[] apply(Damage d, int seg) throws IOException {
    Path p = WalFormat.segmentPath(dir, seg);
    long size = Files.size(p);
    long at = (long) (size * d.fraction()) + d.offset();
    if (d.op() == Op.FLIP_SERIES_RECORD) {
      Frame f = null;
      for (Frame x : frames) {
        if (x.segment() == seg && !x.refs().isEmpty()) {
          f = x;
        }
      }
      assertThat(f).as("a series record in segment %d", seg).isNotNull();
      at = (f.start() + f.end()) / 2;
    }
    switch (d.op()) {
      case FLIP_SERIES_RECORD:
      case FLIP:
        {
          byte[] b = read(p, at, d.length());
          for (int i = 0; i < b.length; i++) {
            b[i] ^= (byte) 0x5A;
          }
          write(p, at, b);
          return new long[] {at, at + d.length()};
        }
      case ZERO:
        write(p, at, new byte[d.length()]);
        return new long[] {at, at + d.length()};
      case GARBAGE:
        {
          byte[] g = new byte[d.length()];
          new Random(7).nextBytes(g);
          write(p, at, g);
          return new long[] {at, at + d.length()};
        }
      case TRUNCATE:
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
          ch.truncate(at);
        }
        return new long[] {at, Long.MAX_VALUE};
      case DELETE:
        Files.delete(p);
        return new long[] {0, Long.MAX_VALUE};
      case APPEND_ZEROS:
      case APPEND_GARBAGE:
        {
          byte[] g = new byte[d.length()];
          if (d.op() == Op.APPEND_GARBAGE) {
            new Random(5).nextBytes(g);
          }
          Files.write(p, g, StandardOpenOption.APPEND);
          return new long[] {size, size + d.length()};
        }
      default:
        throw new AssertionError(d.op());
    }
  }

  private static byte[] read(Path p, long at, int n) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(n);
      ch.read(b, at);
      return b.array();
    }
  }

  private static void write(Path p, long at, byte[] b) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(b), at);
    }
  }
}
