package dev.infermon.tsdb;

import dev.infermon.model.labels.Matcher;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.storage.AppendWatermark;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Backfill;
import dev.infermon.storage.MergeQuerier;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.Storage;
import dev.infermon.storage.StorageException;
import dev.infermon.storage.StorageUnavailableException;
import dev.infermon.tsdb.block.Block;
import dev.infermon.tsdb.block.BlockMeta;
import dev.infermon.tsdb.block.BlockWriter;
import dev.infermon.tsdb.chunkenc.XorChunk;
import dev.infermon.tsdb.fileutil.IoErrors;
import dev.infermon.tsdb.head.Head;
import dev.infermon.tsdb.head.HeadOptions;
import dev.infermon.tsdb.head.HeadStats;
import dev.infermon.tsdb.wal.ReplayStats;
import dev.infermon.tsdb.wal.WalReplay;
import dev.infermon.tsdb.wal.WalWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded time-series database: a {@link Head} in memory, a write-ahead log that makes every
 * commit survive a crash of the process, and immutable blocks on disk, compacted and retained in
 * the background. The data directory holds {@code lock}, {@code wal/} and one directory per block.
 *
 * <p>Durability: a commit returns after its samples were written to the log with {@code write(2)};
 * after {@code kill -9} every such sample is replayed. The log is fsynced every {@link
 * TsdbOptions#walSyncInterval()}, which bounds what a power failure can lose. See {@code
 * docs/format/wal.md}.
 *
 * <p>Threading: all methods are thread-safe. Appends never wait for compaction except for the
 * moment the log cuts a segment; queriers keep the blocks they read alive until closed.
 */
public final class Tsdb implements Storage, AppendWatermark, Backfill {
  private static final Logger log = LoggerFactory.getLogger(Tsdb.class);

  static final String WAL_DIR = "wal";

  /** Completed head chunks, memory-mapped; a cache of the head emptied at every open. */
  static final String HEAD_CHUNKS_DIR = "head_chunks";

  private final Path dir;
  private final TsdbOptions options;
  private final DataDirLock lock;
  private final Head head;
  private final WalWriter wal;
  private final Blocks blocks;
  private final ReaderTracker readers = new ReaderTracker();
  private final TsdbCompactor compactor;
  private final ReplayStats replayStats;
  private final ScheduledExecutorService background;
  private final Object compactionLock = new Object();
  private final long futureDroppedAtReplay;
  // Set before close() waits for a running compaction, which checks it between steps.
  private volatile boolean closing;
  private volatile boolean lastCompactionFailed;
  private volatile boolean compacting;
  private final AtomicBoolean compactionQueued = new AtomicBoolean();
  private final AtomicLong failedHeadCompactions = new AtomicLong();
  private final AtomicLong noSpaceCompactions = new AtomicLong();
  private int syncFailures; // the sync thread's
  private volatile boolean closed;

  private Tsdb(
      Path dir,
      TsdbOptions options,
      DataDirLock lock,
      Head head,
      WalWriter wal,
      Blocks blocks,
      ReplayStats replayStats,
      long futureDroppedAtReplay) {
    this.dir = dir;
    this.futureDroppedAtReplay = futureDroppedAtReplay;
    this.options = options;
    this.lock = lock;
    this.head = head;
    this.wal = wal;
    this.blocks = blocks;
    this.replayStats = replayStats;
    this.compactor =
        new TsdbCompactor(
            dir, dir.resolve(WAL_DIR), options, head, wal, blocks, readers, () -> closing);
    AtomicInteger n = new AtomicInteger();
    this.background =
        Executors.newScheduledThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "tsdb-" + dir.getFileName() + "-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Opens (or creates) the database in {@code dir}: takes the directory lock, opens the blocks
   * (skipping unreadable ones with an error), replays the write-ahead log into the head (repairing
   * a torn tail), and starts the background sync and compaction.
   *
   * @throws StorageException when another process holds the directory
   * @throws IOException when the directory cannot be read or written
   */
  public static Tsdb open(Path dir, TsdbOptions options) throws IOException {
    long start = System.nanoTime();
    IoErrors.createDirectories("cannot create the data directory", dir);
    DataDirLock lock;
    try {
      lock = DataDirLock.acquire(dir);
    } catch (IOException e) {
      throw IoErrors.describe("cannot lock the data directory", dir, e);
    }
    try {
      Blocks blocks = load(dir);
      WalHeadLog headLog = new WalHeadLog();
      Head head =
          Head.create(
              new HeadOptions(
                      options.blockRange().toMillis(),
                      XorChunk.TARGET_SAMPLES,
                      headLog,
                      dir.resolve(HEAD_CHUNKS_DIR))
                  .withFutureWindow(options.futureWindow().toMillis(), System::currentTimeMillis));
      long minValid = blocks.headMaxTime();
      if (minValid != Long.MIN_VALUE) {
        head.setMinValidTime(minValid);
      }
      Path walDir = dir.resolve(WAL_DIR);
      HeadReplaySink sink = new HeadReplaySink(head);
      // The head is not published before endReplay, so nothing reads its unordered postings.
      head.beginReplay();
      ReplayStats rs;
      try {
        rs = WalReplay.replay(walDir, minValid, sink);
      } catch (IOException e) {
        throw IoErrors.describe("cannot replay the write-ahead log in", walDir, e);
      }
      sink.reportFuture(options.futureWindow());
      head.reserveSeriesRefs(rs.maxRef());
      head.endReplay();
      WalWriter wal;
      try {
        wal = WalWriter.open(walDir, options.walSegmentBytes());
      } catch (IOException e) {
        throw IoErrors.describe("cannot open the write-ahead log in", walDir, e);
      }
      headLog.attach(wal);
      Tsdb db = new Tsdb(dir, options, lock, head, wal, blocks, rs, sink.future());
      db.startBackground();
      log.info(
          "tsdb {} opened in {} ms: {} blocks ({} skipped), {} head series, {} samples replayed"
              + " from the write-ahead log in {} ms",
          dir,
          (System.nanoTime() - start) / 1_000_000,
          blocks.snapshot().size(),
          blocks.skipped().size(),
          head.stats().series(),
          rs.samples(),
          rs.millis());
      return db;
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  private static Blocks load(Path dir) throws IOException {
    try {
      return Blocks.load(dir);
    } catch (IOException e) {
      throw IoErrors.describe("cannot read the blocks in", dir, e);
    }
  }

  /** Opens with {@link TsdbOptions#defaults()}. */
  public static Tsdb open(Path dir) throws IOException {
    return open(dir, TsdbOptions.defaults());
  }

  private void startBackground() {
    long sync = options.walSyncInterval().toMillis();
    background.scheduleWithFixedDelay(this::syncWal, sync, sync, TimeUnit.MILLISECONDS);
    long every = options.compactionInterval().toMillis();
    background.scheduleWithFixedDelay(this::compactQuietly, every, every, TimeUnit.MILLISECONDS);
    head.onCompactable(this::compactSoon);
  }

  /**
   * A commit made the head span more than 1.5 block ranges: compact now rather than at the next
   * interval, as Prometheus's appender signals its compaction loop. Not after a failed compaction
   * (a full disk): the interval retries then, instead of every commit.
   */
  private void compactSoon() {
    if (closing || lastCompactionFailed || !compactionQueued.compareAndSet(false, true)) {
      return;
    }
    try {
      background.execute(
          () -> {
            compactionQueued.set(false);
            compactQuietly();
          });
    } catch (RejectedExecutionException e) {
      compactionQueued.set(false); // shutting down
    }
  }

  private void syncWal() {
    try {
      wal.sync();
    } catch (IOException | RuntimeException e) {
      if (syncFailures++ == 0 || !StorageUnavailableException.isNoSpace(e)) {
        log.warn("write-ahead log sync failed: {}", e.toString());
      }
    }
  }

  private void compactQuietly() {
    if (compacting) {
      // One is running and goes on while the head is compactable; waiting for it here would hold
      // the second background thread, which the write-ahead log's sync needs.
      return;
    }
    try {
      compact();
    } catch (IOException | RuntimeException e) {
      if (StorageUnavailableException.isNoSpace(e)) {
        // One line per interval, no stack trace: the cause is the disk, not the code.
        log.error("compaction failed, retrying at the next interval: {}", IoErrors.message(e));
      } else {
        log.error("compaction failed; retrying at the next interval", e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Changes the retention from the next compaction pass on (a configuration reload); validated as
   * {@link TsdbOptions} validates it. The compaction ranges, which the retention time caps, stay
   * those the database was opened with.
   *
   * @throws IllegalArgumentException when a value is negative
   */
  public void setRetention(Duration time, long bytes) {
    if (time.isNegative()) {
      throw new IllegalArgumentException("retentionTime must not be negative: " + time);
    }
    if (bytes < 0) {
      throw new IllegalArgumentException("retentionBytes must not be negative: " + bytes);
    }
    compactor.setRetention(time.toMillis(), bytes);
  }

  /**
   * Runs head compaction, block compaction and retention now, as the background thread does every
   * {@link TsdbOptions#compactionInterval()}. Returns when done; a {@link #close()} meanwhile makes
   * it stop after the step under way.
   */
  public void compact() throws IOException, InterruptedException {
    synchronized (compactionLock) {
      if (closed || closing) {
        return;
      }
      compacting = true;
      try {
        compactor.runOnce();
        lastCompactionFailed = false;
      } catch (IOException | RuntimeException e) {
        lastCompactionFailed = true;
        failedHeadCompactions.incrementAndGet();
        if (StorageUnavailableException.isNoSpace(e)) {
          noSpaceCompactions.incrementAndGet();
        }
        throw e;
      } finally {
        compacting = false;
      }
    }
  }

  @Override
  public Appender appender() {
    checkOpen();
    return head.appender();
  }

  /**
   * A querier over the head and every block. It holds the blocks it may read until closed; data
   * moving from the head into a new block meanwhile stays visible to it.
   */
  @Override
  public Querier querier() {
    checkOpen();
    long epoch = readers.enter();
    List<Querier> parts = new ArrayList<>();
    try {
      parts.add(head.querier());
      blocks.queriers(parts);
    } catch (RuntimeException e) {
      for (Querier q : parts) {
        q.close();
      }
      readers.exit(epoch);
      throw e;
    }
    return new TrackedQuerier(MergeQuerier.of(parts), epoch);
  }

  /**
   * Writes {@code series} as a block of their own ({@link BlockMeta.Compaction#BACKFILL}) and opens
   * it: the way to add samples older than the head's appendable window. The block may overlap
   * others in time (also the head's range); compaction merges overlapping blocks first, and a
   * backfilled block's end never bounds what the write-ahead log replays into the head at open. A
   * crash leaves the whole block or none (see {@link BlockWriter}).
   */
  @Override
  public boolean backfill(long mintMs, long maxtMs, List<Backfill.Samples> series)
      throws IOException {
    checkOpen();
    Optional<BlockMeta> meta;
    try (BlockWriter w = BlockWriter.create(dir, mintMs, maxtMs)) {
      for (Backfill.Samples s : series) {
        long[] ts = s.timestamps();
        w.addSamples(s.labels(), ts, s.values(), ts.length);
      }
      meta = w.commit(BlockMeta.Compaction::backfill);
    }
    if (meta.isEmpty()) {
      return false;
    }
    blocks.replace(List.of(), List.of(Block.open(dir.resolve(meta.get().ulid()))));
    log.info(
        "tsdb {}: backfilled block {} for [{}, {}): {} series, {} samples",
        dir,
        meta.get().ulid(),
        mintMs,
        maxtMs,
        meta.get().stats().numSeries(),
        meta.get().stats().numSamples());
    return true;
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    return head.metadata(metric);
  }

  @Override
  public long startTime() {
    return Math.min(blocks.minTime(), head.minTime());
  }

  /**
   * The earliest sample time an appender created now accepts (Prometheus's appendable window: half
   * a chunk range before the newest sample, or the newest block's end). Samples older than this can
   * no longer be added, so query results that read only older samples are final; appenders created
   * before keep the window they started with. Grows over time; {@link Long#MIN_VALUE} while empty.
   */
  public long appendableMinTime() {
    return head.appendableMinValidTime();
  }

  @Override
  public long mark() {
    return head.commitMark();
  }

  /**
   * The lowest sample timestamp the head committed since {@code mark}; blocks change only by
   * compaction (same samples) and retention, which a reader bounds by age.
   */
  @Override
  public java.util.OptionalLong lowestSince(long mark) {
    return head.lowestCommittedSince(mark);
  }

  /** The directory this database owns. */
  public Path dir() {
    return dir;
  }

  /** Metas of the blocks currently open, oldest first. */
  public List<BlockMeta> blocks() {
    List<BlockMeta> out = new ArrayList<>();
    for (Block b : blocks.snapshot()) {
      out.add(b.meta());
    }
    return out;
  }

  /** Blocks that could not be read at open, each with the reason. */
  public List<String> skippedBlocks() {
    return blocks.skipped();
  }

  /** The head's counters (rejected samples, series, time range). */
  public CompactionStats compactionStats() {
    return compactor.stats();
  }

  public HeadStats headStats() {
    return head.stats();
  }

  /** The head (for tests in this package). */
  Head head() {
    return head;
  }

  /** What the write-ahead log replay did at open. */
  public ReplayStats replayStats() {
    return replayStats;
  }

  /** Samples dropped at replay for lying beyond the future window. */
  public long futureSamplesDroppedAtReplay() {
    return futureDroppedAtReplay;
  }

  /** Failed writes and compactions since open, and how many of them a full disk caused. */
  public WriteFailures writeFailures() {
    return new WriteFailures(
        wal.failedWrites(),
        failedHeadCompactions.get(),
        wal.noSpaceErrors() + noSpaceCompactions.get());
  }

  /**
   * Failures of writes to disk since the database was opened.
   *
   * @param walWrites commits refused because the write-ahead log could not be written
   * @param compactions compaction runs that failed (retried at the next interval)
   * @param noSpace of both, those the operating system refused for lack of space (ENOSPC, EDQUOT)
   */
  public record WriteFailures(long walWrites, long compactions, long noSpace) {}

  /**
   * What start-up skipped of the data directory, one line each (unreadable blocks, write-ahead log
   * repairs and the records lost to them, samples dropped beyond the future window); empty when
   * everything was read.
   */
  public List<String> startupProblems() {
    List<String> out = new ArrayList<>(blocks.skipped());
    for (String r : replayStats.repairs()) {
      out.add("write-ahead log repaired: " + r);
    }
    if (replayStats.orphanSamples() > 0) {
      out.add(
          "write-ahead log: "
              + replayStats.orphanSamples()
              + " samples of "
              + replayStats.lostSeries()
              + " series lost with their series records");
    }
    if (futureDroppedAtReplay > 0) {
      out.add(
          "write-ahead log: "
              + futureDroppedAtReplay
              + " samples beyond the future window of "
              + options.futureWindow()
              + " dropped");
    }
    return out;
  }

  /**
   * Stops the background work (waiting for a running compaction), syncs and closes the write-ahead
   * log, and releases the blocks and the directory lock. Idempotent.
   */
  @Override
  public void close() {
    closing = true;
    synchronized (compactionLock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    // shutdown, not shutdownNow: interrupting a thread inside FileChannel I/O closes the channel.
    background.shutdown();
    try {
      if (!background.awaitTermination(30, TimeUnit.SECONDS)) {
        log.warn("tsdb {}: background work did not stop within 30 s", dir);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      wal.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close write-ahead log in " + dir, e);
    } finally {
      blocks.closeAll();
      head.close();
      try {
        lock.close();
      } catch (IOException e) {
        log.warn("cannot release lock of {}", dir, e);
      }
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("tsdb " + dir + " is closed");
    }
  }

  /** Releases the reader registration with the merged querier. */
  private final class TrackedQuerier implements Querier {
    private final Querier delegate;
    private final long epoch;
    private boolean closed;

    TrackedQuerier(Querier delegate, long epoch) {
      this.delegate = delegate;
      this.epoch = epoch;
    }

    @Override
    public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
      return delegate.select(sorted, mint, maxt, matchers);
    }

    @Override
    public boolean mayHaveSamplesIn(long mint, long maxt) {
      return delegate.mayHaveSamplesIn(mint, maxt);
    }

    @Override
    public List<String> labelValues(String name, long mint, long maxt, List<Matcher> matchers) {
      return delegate.labelValues(name, mint, maxt, matchers);
    }

    @Override
    public List<String> labelNames(long mint, long maxt, List<Matcher> matchers) {
      return delegate.labelNames(mint, maxt, matchers);
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        delegate.close();
      } finally {
        readers.exit(epoch);
      }
    }
  }
}
