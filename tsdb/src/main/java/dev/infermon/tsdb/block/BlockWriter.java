package dev.infermon.tsdb.block;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import dev.infermon.tsdb.chunkenc.XorChunk;
import dev.infermon.tsdb.chunkenc.XorIterator;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Builds one immutable block covering {@code [mint, maxt)}. Series are added in strictly increasing
 * label order, either as samples ({@link #addSeries(Series)}: re-encoded into XOR chunks of {@value
 * #SAMPLES_PER_CHUNK}, which also joins the chunks of merged parents) or as chunks that are already
 * encoded ({@link #addChunks}: the head's, copied as they are). The block is written under {@code
 * <ulid>.tmp-for-creation}; {@link #commit} syncs it and renames it into place, so a crash leaves
 * either no block or a whole one; {@link #close()} without commit deletes the temporary directory.
 *
 * <p>Memory: the labels and chunk references of every series are held until the index is written;
 * chunk bytes stream to disk. Threading: one thread.
 */
public final class BlockWriter implements AutoCloseable {
  /** Samples per re-encoded chunk: Prometheus's target. */
  public static final int SAMPLES_PER_CHUNK = XorChunk.TARGET_SAMPLES;

  /** Suffix of a block directory still being written; such directories are deleted on open. */
  public static final String TMP_SUFFIX = ".tmp-for-creation";

  private final Path dir;
  private final long mint;
  private final long maxt;
  private final String ulid;
  private final Path tmp;
  private final ChunkWriter chunkWriter;
  private final List<Labels> labels = new ArrayList<>();
  private final List<long[]> metas = new ArrayList<>();
  private final TreeSet<String> symbols = new TreeSet<>();
  private long[] buf = new long[3 * 8]; // chunk metas of the current series
  private final long[] ts = new long[SAMPLES_PER_CHUNK];
  private final double[] vs = new double[SAMPLES_PER_CHUNK];
  private int pending;
  private int seriesChunks;
  private long samples;
  private long chunks;
  private Labels last;
  private boolean committed;

  private BlockWriter(
      Path dir, long mint, long maxt, long chunkSegmentBytes, ChunkWriter.SegmentFiles files)
      throws IOException {
    if (maxt <= mint) {
      throw new IllegalArgumentException("empty block range [" + mint + ", " + maxt + ")");
    }
    this.dir = dir;
    this.mint = mint;
    this.maxt = maxt;
    this.ulid = Ulid.next();
    this.tmp = dir.resolve(ulid + TMP_SUFFIX);
    FileUtil.deleteRecursively(tmp);
    Files.createDirectories(tmp);
    try {
      this.chunkWriter = new ChunkWriter(tmp, chunkSegmentBytes, files);
    } catch (IOException | RuntimeException e) {
      FileUtil.deleteRecursively(tmp); // no writer to close: nothing else would delete it
      throw e;
    }
  }

  /** Starts a block of {@code [mint, maxt)} in {@code dir}. */
  public static BlockWriter create(Path dir, long mint, long maxt) throws IOException {
    return new BlockWriter(dir, mint, maxt, ChunkFormat.DEFAULT_SEGMENT_BYTES, ChunkWriter.FILES);
  }

  static BlockWriter create(Path dir, long mint, long maxt, long chunkSegmentBytes)
      throws IOException {
    return new BlockWriter(dir, mint, maxt, chunkSegmentBytes, ChunkWriter.FILES);
  }

  static BlockWriter create(Path dir, long mint, long maxt, ChunkWriter.SegmentFiles files)
      throws IOException {
    return new BlockWriter(dir, mint, maxt, ChunkFormat.DEFAULT_SEGMENT_BYTES, files);
  }

  /** Writes a level-1 block from a sorted series set; empty when no sample fell in the range. */
  public static Optional<BlockMeta> writeHeadBlock(Path dir, SeriesSet series, long mint, long maxt)
      throws IOException {
    try (BlockWriter w = create(dir, mint, maxt)) {
      while (series.next()) {
        w.addSeries(series.at());
      }
      return w.commit(BlockMeta.Compaction::head);
    }
  }

  /** Writes a block merging {@code parents}, whose series {@code series} holds, sorted. */
  public static Optional<BlockMeta> writeMerged(Path dir, SeriesSet series, List<BlockMeta> parents)
      throws IOException {
    long mint = Long.MAX_VALUE;
    long maxt = Long.MIN_VALUE;
    for (BlockMeta p : parents) {
      mint = Math.min(mint, p.minTime());
      maxt = Math.max(maxt, p.maxTime());
    }
    BlockMeta.Compaction c = BlockMeta.Compaction.merged(parents);
    try (BlockWriter w = create(dir, mint, maxt)) {
      while (series.next()) {
        w.addSeries(series.at());
      }
      return w.commit(id -> c);
    }
  }

  /** Adds a series' samples in {@code [mint, maxt)}; nothing when it has none there. */
  public void addSeries(Series s) throws IOException {
    Labels ls = s.labels();
    checkOrder(ls);
    SampleIterator it = s.iterator();
    for (boolean more = it.seek(mint); more && it.timestamp() < maxt; more = it.next()) {
      buffer(it.timestamp(), it.value());
    }
    finishSeries(ls);
  }

  /**
   * Adds a series given as its samples, {@code ts} strictly increasing and inside {@code [mint,
   * maxt)}; nothing when {@code n} is 0.
   */
  public void addSamples(Labels ls, long[] ts, double[] vs, int n) throws IOException {
    checkOrder(ls);
    for (int i = 0; i < n; i++) {
      if (ts[i] < mint || ts[i] >= maxt) {
        throw new IllegalArgumentException(
            "sample at " + ts[i] + " of " + ls + " outside [" + mint + ", " + maxt + ")");
      }
      buffer(ts[i], vs[i]);
    }
    finishSeries(ls);
  }

  /**
   * Adds a series given as encoded XOR chunks (the head's), in time order, each wholly inside
   * {@code [mint, maxt)}. Their samples are re-chunked like {@link #addSeries}'s.
   */
  public void addChunks(Labels ls, List<byte[]> xorChunks) throws IOException {
    checkOrder(ls);
    for (byte[] b : xorChunks) {
      XorIterator it = XorIterator.over(b, 0, b.length);
      while (it.next()) {
        long t = it.timestamp();
        if (t < mint || t >= maxt) {
          throw new IllegalArgumentException(
              "sample at " + t + " of " + ls + " outside [" + mint + ", " + maxt + ")");
        }
        buffer(t, it.value());
      }
    }
    finishSeries(ls);
  }

  private void buffer(long t, double v) throws IOException {
    if (pending > 0 && t <= ts[pending - 1]) {
      throw new IllegalArgumentException(
          "samples out of order: " + t + " after " + ts[pending - 1]);
    }
    ts[pending] = t;
    vs[pending] = v;
    pending++;
    samples++;
    if (pending == SAMPLES_PER_CHUNK) {
      flushChunk();
    }
  }

  /** Encodes the buffered samples as one chunk: scaled integers when exact, else XOR. */
  private void flushChunk() throws IOException {
    if (pending == 0) {
      return;
    }
    byte[] data = IntChunk.encode(ts, vs, pending);
    int encoding = ChunkFormat.ENCODING_INT;
    int len;
    if (data != null) {
      len = data.length;
    } else {
      XorChunk c = XorChunk.create();
      for (int i = 0; i < pending; i++) {
        c.append(ts[i], vs[i]);
      }
      data = c.snapshotBuffer();
      len = c.length();
      encoding = ChunkFormat.ENCODING_XOR;
    }
    int i = seriesChunks;
    if (buf.length < 3 * (i + 1)) {
      buf = Arrays.copyOf(buf, buf.length * 2);
    }
    buf[3 * i] = ts[0];
    buf[3 * i + 1] = ts[pending - 1];
    buf[3 * i + 2] = chunkWriter.write(data, len, encoding);
    seriesChunks++;
    pending = 0;
  }

  private void checkOrder(Labels ls) {
    if (committed) {
      throw new IllegalStateException("block already committed");
    }
    if (last != null && last.compareTo(ls) >= 0) {
      throw new IllegalArgumentException("series not sorted or repeated: " + ls + " after " + last);
    }
    last = ls;
  }

  private void finishSeries(Labels ls) throws IOException {
    flushChunk();
    int n = seriesChunks;
    seriesChunks = 0;
    if (n == 0) {
      return;
    }
    chunks += n;
    labels.add(ls);
    metas.add(Arrays.copyOf(buf, 3 * n));
    for (int i = 0; i < ls.size(); i++) {
      symbols.add(ls.name(i));
      symbols.add(ls.value(i));
    }
  }

  /**
   * Writes the index and meta, syncs and publishes the block.
   *
   * @param compaction the block's lineage given its id
   * @return the meta, or empty when no series had samples (nothing is published)
   */
  public Optional<BlockMeta> commit(Function<String, BlockMeta.Compaction> compaction)
      throws IOException {
    if (committed) {
      throw new IllegalStateException("block already committed");
    }
    committed = true;
    chunkWriter.close();
    if (labels.isEmpty()) {
      return Optional.empty();
    }
    try (IndexWriter iw = new IndexWriter(tmp.resolve(IndexFormat.FILE), symbols)) {
      for (int i = 0; i < labels.size(); i++) {
        long[] m = metas.get(i);
        iw.addSeries(labels.get(i), m, m.length / 3);
      }
    }
    BlockMeta meta =
        new BlockMeta(
            ulid,
            mint,
            maxt,
            new BlockMeta.Stats(samples, labels.size(), chunks),
            compaction.apply(ulid),
            BlockMeta.VERSION);
    meta.write(tmp);
    FileUtil.publish(tmp, dir.resolve(ulid));
    return Optional.of(meta);
  }

  /**
   * Deletes the temporary directory unless the block was published, also when closing the chunk
   * files fails (a full disk fails their last flush; the directory must not stay behind).
   */
  @Override
  public void close() throws IOException {
    try {
      chunkWriter.close();
    } finally {
      if (Files.exists(tmp)) {
        FileUtil.deleteRecursively(tmp);
      }
    }
  }

  /** Deletes directories of interrupted block writes in {@code dir}; returns how many. */
  public static int deleteLeftovers(Path dir) throws IOException {
    int n = 0;
    for (Path p : FileUtil.list(dir)) {
      if (p.getFileName().toString().endsWith(TMP_SUFFIX)) {
        FileUtil.deleteRecursively(p);
        n++;
      }
    }
    return n;
  }
}
