package dev.infermon.tsdb.wal;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.encoding.CorruptDataException;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Condenses the start of the log after head compaction: a checkpoint {@code checkpoint.N} holds a
 * series record for every series still in the head and the samples at or after the head's new
 * minimum time found in the previous checkpoint and segments up to {@code N}. Once it is durable
 * (written under a temporary name, synced, renamed) those segments and older checkpoints are
 * deleted. Replay then reads the checkpoint followed by segments after {@code N}.
 *
 * <p>Threading: one checkpoint at a time (the database's compaction thread); appends may continue
 * concurrently into segments after {@code N}.
 */
public final class Checkpoint {
  private static final Logger log = LoggerFactory.getLogger(Checkpoint.class);
  private static final int SERIES_PER_RECORD = 10_000;
  private static final int SAMPLES_PER_RECORD = 50_000;

  /**
   * What was written.
   *
   * @param index the checkpoint's index ({@code N})
   * @param series series records kept
   * @param samples samples kept
   * @param droppedSamples samples dropped (too old or of a series no longer in the head)
   * @param deletedSegments segments removed after the checkpoint became durable
   */
  public record Stats(
      int index, long series, long samples, long droppedSamples, int deletedSegments) {}

  private Checkpoint() {}

  /**
   * Writes {@code checkpoint.through} from the previous checkpoint and segments up to {@code
   * through}, then deletes those segments and older checkpoints.
   *
   * @param through the last segment to fold in; must be before the segment being written
   * @param live the series to keep (only their samples are kept too)
   * @param mint samples before it are dropped
   * @throws IOException when reading or writing fails; the log is then left as it was
   */
  public static Stats create(Path dir, int through, LiveSeries live, long mint) throws IOException {
    WalDir.Contents c = WalDir.scan(dir);
    if (through <= c.checkpoint()) {
      throw new IllegalArgumentException(
          "checkpoint " + through + " is not after existing checkpoint " + c.checkpoint());
    }
    Path tmp = dir.resolve(WalFormat.checkpointName(through) + WalFormat.TMP_SUFFIX);
    FileUtil.deleteRecursively(tmp);
    Files.createDirectories(tmp);

    long[] liveRefs;
    long series;
    long[] kept = new long[2];
    try (WalWriter out = WalWriter.open(tmp, Long.MAX_VALUE)) {
      liveRefs = writeSeries(out, live);
      series = liveRefs.length;
      SampleCopier copier = new SampleCopier(out, liveRefs, mint);
      if (c.checkpoint() >= 0) {
        Path prev = WalDir.checkpointPath(dir, c.checkpoint());
        for (int idx : WalDir.scan(prev).segments()) {
          copier.copy(WalFormat.segmentPath(prev, idx));
        }
      }
      for (int idx : c.segments()) {
        if (idx > c.checkpoint() && idx <= through) {
          copier.copy(WalFormat.segmentPath(dir, idx));
        }
      }
      copier.flush();
      kept[0] = copier.kept;
      kept[1] = copier.dropped;
    }
    Path dst = WalDir.checkpointPath(dir, through);
    FileUtil.publish(tmp, dst);

    int deleted = 0;
    for (int idx : c.segments()) {
      if (idx <= through) {
        Files.deleteIfExists(WalFormat.segmentPath(dir, idx));
        deleted++;
      }
    }
    for (int old : c.olderCheckpoints()) {
      FileUtil.deleteRecursively(WalDir.checkpointPath(dir, old));
    }
    if (c.checkpoint() >= 0) {
      FileUtil.deleteRecursively(WalDir.checkpointPath(dir, c.checkpoint()));
    }
    FileUtil.fsyncDir(dir);
    Stats stats = new Stats(through, series, kept[0], kept[1], deleted);
    log.info("write-ahead log checkpoint {} written: {}", dst, stats);
    return stats;
  }

  private static long[] writeSeries(WalWriter out, LiveSeries live) {
    WalBatch batch = new WalBatch();
    long[][] refs = {new long[1024]};
    int[] n = {0};
    live.forEachSeries(
        (ref, labels) -> {
          batch.series(ref, labels);
          if (n[0] == refs[0].length) {
            refs[0] = Arrays.copyOf(refs[0], n[0] * 2);
          }
          refs[0][n[0]++] = ref;
          if (batch.seriesCount() >= SERIES_PER_RECORD) {
            out.write(batch);
          }
        });
    out.write(batch);
    long[] sorted = Arrays.copyOf(refs[0], n[0]);
    Arrays.sort(sorted);
    return sorted;
  }

  /** Copies the samples of live series at or after {@code mint}, in log order. */
  private static final class SampleCopier implements WalRecords.Visitor {
    private final WalWriter out;
    private final long[] liveRefs;
    private final long mint;
    private final WalBatch batch = new WalBatch();
    private final long[] refs = new long[SAMPLES_PER_RECORD];
    private final long[] ts = new long[SAMPLES_PER_RECORD];
    private final double[] vs = new double[SAMPLES_PER_RECORD];
    private int n;
    long kept;
    long dropped;

    SampleCopier(WalWriter out, long[] liveRefs, long mint) {
      this.out = out;
      this.liveRefs = liveRefs;
      this.mint = mint;
    }

    void copy(Path segment) throws IOException {
      SegmentReader r = SegmentReader.open(segment);
      while (r.next()) {
        try {
          WalRecords.decode(r.record(), this);
        } catch (CorruptDataException e) {
          throw new IOException("cannot checkpoint: " + e.getMessage(), e);
        }
      }
      if (!r.damages().isEmpty()) {
        SegmentReader.Damage d = r.damages().get(0);
        throw new IOException(
            "cannot checkpoint: "
                + segment
                + " is damaged at offset "
                + d.start()
                + ": "
                + d.reason());
      }
    }

    @Override
    public void series(long ref, Labels labels) {
      // Live series were written from the head; records in old segments are superseded.
    }

    @Override
    public void sample(long ref, long t, double v) {
      if (t < mint || Arrays.binarySearch(liveRefs, ref) < 0) {
        dropped++;
        return;
      }
      refs[n] = ref;
      ts[n] = t;
      vs[n] = v;
      n++;
      kept++;
      if (n == SAMPLES_PER_RECORD) {
        flush();
      }
    }

    void flush() {
      batch.samples(refs, ts, vs, n);
      out.write(batch);
      n = 0;
    }
  }
}
