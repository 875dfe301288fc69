package dev.infermon.tsdb.wal;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.encoding.CorruptDataException;
import dev.infermon.tsdb.encoding.EncodingBuffer;
import dev.infermon.tsdb.fileutil.ChannelIo;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a log directory into a {@link ReplaySink}: the newest checkpoint, then every later segment
 * in order. Repairs what it cannot read instead of failing, and loses only the damaged part: a
 * torn, corrupt or undecodable frame is skipped and reading resumes at the next frame with a valid
 * checksum (the segment is rewritten without the damaged bytes, or cut when the damage is its
 * tail); a bad segment header is rewritten and the frames after it are read; a missing segment is
 * replaced by an empty one and the segments after it are read. Each repair is logged as a warning
 * with the time range the skipped records fell in, and listed in the result; samples whose series
 * record was lost are counted and reported with their references and time range. Start-up therefore
 * always continues with everything that can be read.
 *
 * <p>Threading: call before opening a {@link WalWriter} on the directory; not concurrently with
 * one.
 */
public final class WalReplay {
  private static final Logger log = LoggerFactory.getLogger(WalReplay.class);

  /** Samples held back for series not yet seen; beyond it they are counted lost at once. */
  static final int MAX_HELD_SAMPLES = 1 << 20;

  /** Suffix of a segment being rewritten by a repair; a leftover is deleted at the next replay. */
  static final String REPAIR_SUFFIX = ".repair";

  private final ReplaySink sink;
  private final long minValidTime;
  private final List<String> repairs = new ArrayList<>();
  private final List<Loss> losses = new ArrayList<>();
  private final Map<Long, Held> held = new HashMap<>();
  private long heldCount;
  private long series;
  private long samples;
  private long dropped;
  private long orphans;
  private long lostSeries;
  private long corruptions;
  private long skippedBytes;
  private long maxRef;
  // Timestamp of the last sample read, in log order; Long.MIN_VALUE before the first.
  private long lastT = Long.MIN_VALUE;

  /** A skipped part of the log, and the timestamps of the samples read around it. */
  private static final class Loss {
    final String where;
    final long before;
    long after = Long.MIN_VALUE;

    Loss(String where, long before) {
      this.where = where;
      this.before = before;
    }
  }

  private WalReplay(ReplaySink sink, long minValidTime) {
    this.sink = sink;
    this.minValidTime = minValidTime;
  }

  /**
   * Replays {@code dir} (an absent directory is an empty log).
   *
   * @param minValidTime samples before it are skipped: blocks on disk already hold them
   * @throws IOException only when the directory cannot be listed or a repair cannot be written
   */
  public static ReplayStats replay(Path dir, long minValidTime, ReplaySink sink)
      throws IOException {
    long start = System.nanoTime();
    WalDir.Contents c = WalDir.scan(dir);
    WalReplay r = new WalReplay(sink, minValidTime);
    for (Path p : c.leftovers()) {
      FileUtil.deleteRecursively(p);
    }
    if (c.checkpoint() >= 0) {
      r.readCheckpoint(WalDir.checkpointPath(dir, c.checkpoint()));
    }
    int read = r.readSegments(dir, c);
    r.finish();
    long millis = (System.nanoTime() - start) / 1_000_000;
    ReplayStats stats =
        new ReplayStats(
            r.series,
            r.samples,
            r.dropped,
            r.orphans,
            r.lostSeries,
            r.corruptions,
            r.skippedBytes,
            r.repairs,
            c.checkpoint(),
            read,
            r.maxRef,
            millis);
    log.info(
        "write-ahead log {} replayed in {} ms: checkpoint {}, {} segments, {} series, {} samples"
            + " ({} older than the head accepts, {} without a series), {} repairs",
        dir,
        millis,
        c.checkpoint(),
        read,
        r.series,
        r.samples,
        r.dropped,
        r.orphans,
        r.repairs.size());
    return stats;
  }

  private void readCheckpoint(Path cp) throws IOException {
    WalDir.Contents inner = WalDir.scan(cp);
    for (int idx : inner.segments()) {
      readSegment(WalFormat.segmentPath(cp, idx));
    }
  }

  private int readSegments(Path dir, WalDir.Contents c) throws IOException {
    List<Integer> segs = c.segments();
    int prev = c.checkpoint();
    int read = 0;
    for (int idx : segs) {
      if (idx <= c.checkpoint()) {
        // Covered by the checkpoint; left behind when the process died before deleting it.
        Files.deleteIfExists(WalFormat.segmentPath(dir, idx));
        continue;
      }
      if (prev >= 0 || read > 0) {
        for (int missing = prev + 1; missing < idx; missing++) {
          fillGap(dir, missing);
        }
      }
      read++;
      prev = idx;
      readSegment(WalFormat.segmentPath(dir, idx));
    }
    return read;
  }

  /** A segment missing between two others: its records are lost; an empty one takes its place. */
  private void fillGap(Path dir, int missing) throws IOException {
    Path p = WalFormat.segmentPath(dir, missing);
    writeSegment(p, List.of());
    corruptions++;
    lose(p + " is missing; its records are lost (an empty segment now takes its place)");
  }

  /** Reads one segment, skipping damaged ranges; then rewrites or cuts it without them. */
  private void readSegment(Path path) throws IOException {
    SegmentReader r = SegmentReader.open(path);
    RecordVisitor v = new RecordVisitor();
    int reported = 0;
    while (true) {
      boolean more = r.next();
      reported = report(r, reported);
      if (!more) {
        break;
      }
      try {
        WalRecords.decode(r.record(), v);
      } catch (CorruptDataException e) {
        r.markCorrupt(e);
        reported = report(r, reported);
      }
    }
    if (!r.damages().isEmpty()) {
      repairFile(r);
    }
  }

  /** Logs the damages found since {@code reported}; returns the new count. */
  private int report(SegmentReader r, int reported) {
    List<SegmentReader.Damage> ds = r.damages();
    for (int i = reported; i < ds.size(); i++) {
      SegmentReader.Damage d = ds.get(i);
      corruptions++;
      if (d.header()) {
        repair(r.path() + " has a bad segment header (" + d.reason() + "); rewritten");
        continue;
      }
      skippedBytes += d.length();
      lose(
          r.path()
              + " is damaged at bytes ["
              + d.start()
              + ", "
              + d.end()
              + ") ("
              + d.reason()
              + "); "
              + d.length()
              + " bytes skipped"
              + (d.end() == r.length() ? " up to the end of the segment" : ", reading resumed"));
    }
    return ds.size();
  }

  /** Writes the segment's good frames back, so the next start finds nothing to repair. */
  private static void repairFile(SegmentReader r) throws IOException {
    List<SegmentReader.Damage> ds = r.damages();
    SegmentReader.Damage last = ds.get(ds.size() - 1);
    if (ds.size() == 1 && !last.header() && last.end() == r.length()) {
      // Only a tail to cut (the usual torn write of a crash): truncating is enough.
      try (FileChannel ch = FileChannel.open(r.path(), StandardOpenOption.WRITE)) {
        ch.truncate(last.start());
        ch.force(true);
      }
      return;
    }
    List<ByteBuffer> parts = new ArrayList<>();
    for (int[] g : r.goodRanges()) {
      parts.add(r.bytes(g[0], g[1]));
    }
    writeSegment(r.path(), parts);
  }

  /** Writes a segment of a header and {@code frames} under a temporary name, then renames it. */
  private static void writeSegment(Path p, List<ByteBuffer> frames) throws IOException {
    Path tmp = p.resolveSibling(p.getFileName() + REPAIR_SUFFIX);
    EncodingBuffer h = new EncodingBuffer(WalFormat.SEGMENT_HEADER_SIZE);
    WalFormat.putSegmentHeader(h);
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      writeFully(ch, ByteBuffer.wrap(h.array(), 0, h.length()));
      for (ByteBuffer b : frames) {
        writeFully(ch, b.duplicate());
      }
      ch.force(true);
    }
    FileUtil.publish(tmp, p);
  }

  private static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
    ChannelIo.writeFully(ch, b);
  }

  private void lose(String where) {
    losses.add(new Loss(where, lastT));
  }

  private void repair(String message) {
    log.warn("write-ahead log repaired, start-up continues: {}", message);
    repairs.add(message);
  }

  private void finish() {
    for (Loss l : losses) {
      repair(
          l.where
              + "; the records lost lay "
              + (l.before == Long.MIN_VALUE
                  ? "before the first sample read"
                  : "after t=" + l.before)
              + (l.after == Long.MIN_VALUE
                  ? " (no sample read after them)"
                  : " and before t=" + l.after));
    }
    long[] range = {Long.MAX_VALUE, Long.MIN_VALUE};
    TreeSet<Long> refs = new TreeSet<>();
    for (Map.Entry<Long, Held> e : held.entrySet()) {
      Held h = e.getValue();
      orphans += h.n;
      refs.add(e.getKey());
      for (int i = 0; i < h.n; i++) {
        range[0] = Math.min(range[0], h.ts[i]);
        range[1] = Math.max(range[1], h.ts[i]);
      }
    }
    held.clear();
    lostSeries = refs.size();
    if (!refs.isEmpty()) {
      log.warn(
          "write-ahead log: {} samples of {} series are lost with their series records, which lay"
              + " in a damaged part of the log (references {}; samples from t={} to t={})",
          orphans,
          refs.size(),
          refs.size() <= 10 ? refs : refs.first() + " to " + refs.last(),
          range[0],
          range[1]);
    }
  }

  private final class RecordVisitor implements WalRecords.Visitor {
    @Override
    public void series(long ref, Labels labels) {
      sink.series(ref, labels);
      series++;
      maxRef = Math.max(maxRef, ref);
      Held h = held.remove(ref);
      if (h != null) {
        heldCount -= h.n;
        for (int i = 0; i < h.n; i++) {
          deliver(ref, h.ts[i], h.vs[i], false);
        }
      }
    }

    @Override
    public void sample(long ref, long t, double v) {
      maxRef = Math.max(maxRef, ref);
      // The first sample after a skipped part bounds the time of what was lost there.
      for (int i = losses.size() - 1; i >= 0 && losses.get(i).after == Long.MIN_VALUE; i--) {
        losses.get(i).after = t;
      }
      lastT = t;
      deliver(ref, t, v, true);
    }

    private void deliver(long ref, long t, double v, boolean mayHold) {
      if (t < minValidTime) {
        dropped++;
        return;
      }
      if (sink.sample(ref, t, v)) {
        samples++;
      } else if (mayHold && heldCount < MAX_HELD_SAMPLES) {
        held.computeIfAbsent(ref, k -> new Held()).add(t, v);
        heldCount++;
      } else {
        orphans++;
      }
    }
  }

  private static final class Held {
    long[] ts = new long[4];
    double[] vs = new double[4];
    int n;

    void add(long t, double v) {
      if (n == ts.length) {
        ts = Arrays.copyOf(ts, n * 2);
        vs = Arrays.copyOf(vs, n * 2);
      }
      ts[n] = t;
      vs[n] = v;
      n++;
    }
  }
}
