package dev.infermon.tsdb.wal;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.encoding.CorruptDataException;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a log directory into a {@link ReplaySink}: the newest checkpoint, then every later segment
 * in order. Repairs what it cannot read instead of failing: a torn or corrupt frame cuts its
 * segment at the last good record and deletes the segments after it (their records may depend on
 * what was lost), a missing segment ends the log there; each repair is logged as a warning and
 * listed in the result. Start-up therefore always continues with the longest readable prefix.
 *
 * <p>Threading: call before opening a {@link WalWriter} on the directory; not concurrently with
 * one.
 */
public final class WalReplay {
  private static final Logger log = LoggerFactory.getLogger(WalReplay.class);

  /** Samples held back for series not yet seen; beyond it they are counted lost at once. */
  static final int MAX_HELD_SAMPLES = 1 << 20;

  private final ReplaySink sink;
  private final long minValidTime;
  private final List<String> repairs = new ArrayList<>();
  private final Map<Long, Held> held = new HashMap<>();
  private long heldCount;
  private long series;
  private long samples;
  private long dropped;
  private long orphans;

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
            r.series, r.samples, r.dropped, r.orphans, r.repairs, c.checkpoint(), read, millis);
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
      if (!readSegment(WalFormat.segmentPath(cp, idx))) {
        break;
      }
    }
  }

  private int readSegments(Path dir, WalDir.Contents c) throws IOException {
    List<Integer> segs = c.segments();
    int prev = -1;
    int read = 0;
    for (int i = 0; i < segs.size(); i++) {
      int idx = segs.get(i);
      if (idx <= c.checkpoint()) {
        // Covered by the checkpoint; left behind when the process died before deleting it.
        Files.deleteIfExists(WalFormat.segmentPath(dir, idx));
        continue;
      }
      if (prev >= 0 && idx != prev + 1) {
        repair(
            "segment "
                + WalFormat.segmentName(prev + 1)
                + " of "
                + dir
                + " is missing; the log ends at "
                + WalFormat.segmentName(prev));
        deleteFrom(dir, segs, i);
        break;
      }
      read++;
      prev = idx;
      if (!readSegment(WalFormat.segmentPath(dir, idx))) {
        deleteFrom(dir, segs, i + 1);
        break;
      }
    }
    return read;
  }

  /** Reads one segment; on corruption cuts it and returns false. */
  private boolean readSegment(Path path) throws IOException {
    SegmentReader r = SegmentReader.open(path);
    RecordVisitor v = new RecordVisitor();
    while (r.next()) {
      try {
        WalRecords.decode(r.record(), v);
      } catch (CorruptDataException e) {
        r.markCorrupt(e);
      }
    }
    if (r.corruption() == null) {
      return true;
    }
    int keep = r.validLength();
    if (keep == 0) {
      Files.delete(path);
    } else {
      try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
        ch.truncate(keep);
        ch.force(true);
      }
    }
    repair(
        path
            + " is corrupt at offset "
            + keep
            + " ("
            + r.corruption()
            + "); cut "
            + (r.length() - keep)
            + " bytes there"
            + (keep == 0 ? " (file deleted)" : ""));
    return false;
  }

  private void deleteFrom(Path dir, List<Integer> segs, int from) throws IOException {
    for (int j = from; j < segs.size(); j++) {
      Path p = WalFormat.segmentPath(dir, segs.get(j));
      repair("deleted " + p + ", which follows the cut");
      Files.deleteIfExists(p);
    }
  }

  private void repair(String message) {
    log.warn("write-ahead log repaired, start-up continues: {}", message);
    repairs.add(message);
  }

  private void finish() {
    for (Held h : held.values()) {
      orphans += h.n;
    }
    held.clear();
  }

  private final class RecordVisitor implements WalRecords.Visitor {
    @Override
    public void series(long ref, Labels labels) {
      sink.series(ref, labels);
      series++;
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
