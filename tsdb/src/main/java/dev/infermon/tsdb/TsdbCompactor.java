package dev.infermon.tsdb;

import dev.infermon.storage.StorageUnavailableException;
import dev.infermon.tsdb.block.Block;
import dev.infermon.tsdb.block.BlockMeta;
import dev.infermon.tsdb.block.BlockWriter;
import dev.infermon.tsdb.block.CompactionPlanner;
import dev.infermon.tsdb.block.Compactor;
import dev.infermon.tsdb.block.Retention;
import dev.infermon.tsdb.fileutil.FileUtil;
import dev.infermon.tsdb.head.ChunkExport;
import dev.infermon.tsdb.head.Head;
import dev.infermon.tsdb.wal.Checkpoint;
import dev.infermon.tsdb.wal.WalWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background work of a {@link Tsdb}, in the order Prometheus does it: cut the head into blocks
 * while it spans more than 1.5 block ranges (oldest range first), truncating the head and
 * checkpointing the write-ahead log after each; merge blocks as the planner says; delete blocks
 * beyond retention.
 *
 * <p>Threading: {@link #runOnce()} runs on one thread at a time (the caller serializes). Appends
 * continue meanwhile: a block is written from a snapshot of the head's chunks, and the head rejects
 * samples older than the range being compacted before compaction starts (its appendable window ends
 * half a block range behind its newest sample, which is past the range's end).
 */
final class TsdbCompactor {
  private static final Logger log = LoggerFactory.getLogger(TsdbCompactor.class);

  private final Path dir;
  private final Path walDir;
  private final TsdbOptions options;
  private final Head head;
  private final WalWriter wal;
  private final Blocks blocks;
  private final ReaderTracker readers;
  private final CompactionPlanner planner;
  private final BooleanSupplier stop;
  private final Set<String> failed = new HashSet<>();
  // Written by the compaction thread, read by metrics scrapes.
  private final AtomicLong headCompactions = new AtomicLong();
  private final AtomicLong blockCompactions = new AtomicLong();
  private final AtomicLong failedCompactions = new AtomicLong();
  private final AtomicLong retentionDeleted = new AtomicLong();
  // Replaced on a configuration reload (Tsdb.setRetention), read by the compaction thread.
  private volatile long retentionMs;
  private volatile long retentionBytes;

  TsdbCompactor(
      Path dir,
      Path walDir,
      TsdbOptions options,
      Head head,
      WalWriter wal,
      Blocks blocks,
      ReaderTracker readers,
      BooleanSupplier stop) {
    this.dir = dir;
    this.stop = stop;
    this.walDir = walDir;
    this.options = options;
    this.head = head;
    this.wal = wal;
    this.blocks = blocks;
    this.readers = readers;
    this.planner = new CompactionPlanner(options.compactionRanges());
    this.retentionMs = options.retentionTime().toMillis();
    this.retentionBytes = options.retentionBytes();
  }

  /** The retention the next pass applies; the compaction ranges stay those of the open. */
  void setRetention(long timeMs, long bytes) {
    retentionMs = timeMs;
    retentionBytes = bytes;
  }

  CompactionStats stats() {
    return new CompactionStats(
        headCompactions.get(),
        blockCompactions.get(),
        failedCompactions.get(),
        retentionDeleted.get());
  }

  /**
   * One round. Bounded whatever the data: each head cut moves the head's start forward (empty
   * ranges are skipped, see {@link Head#truncateBefore}), and {@code stop} (the database closing)
   * is checked between steps.
   */
  void runOnce() throws IOException, InterruptedException {
    compactHead();
    if (stop.getAsBoolean()) {
      return;
    }
    compactBlocks();
    if (stop.getAsBoolean()) {
      return;
    }
    applyRetention();
    int leftovers = BlockWriter.deleteLeftovers(dir);
    if (leftovers > 0) {
      log.info("deleted {} directories left by block writes that failed earlier", leftovers);
    }
  }

  /** Cuts blocks from the head while it spans more than 1.5 block ranges. */
  void compactHead() throws IOException, InterruptedException {
    long range = options.blockRange().toMillis();
    while (!stop.getAsBoolean()) {
      long hmin = head.minTime();
      long hmax = head.maxTime();
      if (hmin == Long.MAX_VALUE || hmax == Long.MIN_VALUE || hmax - range / 2 * 3 <= hmin) {
        return;
      }
      long mint = hmin;
      long maxt = Math.floorDiv(mint, range) * range + range;
      if (maxt <= mint) {
        return; // the range holding Long.MAX_VALUE: nothing after it to make room for
      }
      cutBlock(mint, maxt);
      if (head.minTime() <= hmin) {
        log.warn("head compaction of [{}, {}) did not move the head's start; stopping", mint, maxt);
        return;
      }
    }
  }

  private void cutBlock(long mint, long maxt) throws IOException, InterruptedException {
    long start = System.nanoTime();
    // Everything logged so far is in segments up to 'through'; they can be checkpointed after.
    int through = wal.nextSegment();
    Optional<BlockMeta> meta;
    try (BlockWriter w = BlockWriter.create(dir, mint, maxt)) {
      try {
        head.exportChunks(mint, maxt - 1, (ref, labels, chunks) -> add(w, labels, chunks));
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      meta = w.commit(BlockMeta.Compaction::head);
    }
    List<Block> added = new ArrayList<>();
    if (meta.isPresent()) {
      added.add(Block.open(dir.resolve(meta.get().ulid())));
    }
    blocks.replace(List.of(), added);
    // Queriers opened before the block was added do not see it: let them finish before the head
    // forgets the same data.
    long epoch = readers.advance();
    if (!readers.awaitBefore(epoch, options.readerDrainTimeout().toMillis())) {
      log.warn(
          "queriers opened before block [{}, {}) was added are still open after {}; truncating"
              + " the head anyway",
          mint,
          maxt,
          options.readerDrainTimeout());
    }
    int removed = head.truncateBefore(maxt);
    headCompactions.incrementAndGet();
    log.info(
        "head compacted into {} for [{}, {}) in {} ms; {} series removed from the head",
        meta.map(BlockMeta::ulid).orElse("no block (no samples)"),
        mint,
        maxt,
        (System.nanoTime() - start) / 1_000_000,
        removed);
    try {
      Checkpoint.create(
          walDir, through, v -> head.forEachSeries((ref, labels) -> v.accept(ref, labels)), maxt);
    } catch (IOException e) {
      // The log keeps its segments and the next compaction folds them in; replay skips what the
      // block already holds, so nothing is lost or doubled.
      if (StorageUnavailableException.isNoSpace(e)) {
        log.error(
            "write-ahead log checkpoint after compaction failed, will retry: {}", e.getMessage());
      } else {
        log.error("write-ahead log checkpoint after compaction failed; will retry", e);
      }
    }
  }

  private static void add(
      BlockWriter w, dev.infermon.model.labels.Labels labels, List<ChunkExport.Chunk> chunks) {
    List<byte[]> bytes = new ArrayList<>(chunks.size());
    for (ChunkExport.Chunk c : chunks) {
      bytes.add(c.bytes());
    }
    try {
      w.addChunks(labels, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Merges blocks while the planner finds a group. */
  void compactBlocks() throws IOException {
    while (!stop.getAsBoolean()) {
      List<Block> current = new ArrayList<>();
      List<BlockMeta> metas = new ArrayList<>();
      for (Block b : blocks.snapshot()) {
        if (!failed.contains(b.meta().ulid())) {
          current.add(b);
          metas.add(b.meta());
        }
      }
      List<BlockMeta> plan = planner.plan(metas);
      if (plan.isEmpty()) {
        return;
      }
      List<Block> parents = new ArrayList<>();
      for (BlockMeta m : plan) {
        for (Block b : current) {
          if (b.meta().ulid().equals(m.ulid())) {
            parents.add(b);
          }
        }
      }
      long start = System.nanoTime();
      Optional<BlockMeta> merged;
      try {
        merged = Compactor.compact(dir, parents);
      } catch (RuntimeException e) {
        for (BlockMeta m : plan) {
          failed.add(m.ulid());
        }
        failedCompactions.incrementAndGet();
        log.error("compaction of {} failed; those blocks are left as they are", plan, e);
        return;
      }
      List<Block> added = new ArrayList<>();
      if (merged.isPresent()) {
        added.add(Block.open(dir.resolve(merged.get().ulid())));
      }
      blocks.replace(parents, added);
      blockCompactions.incrementAndGet();
      log.info(
          "compacted {} blocks into {} in {} ms",
          parents.size(),
          merged.map(BlockMeta::ulid).orElse("nothing (no samples)"),
          (System.nanoTime() - start) / 1_000_000);
    }
  }

  /** Deletes blocks beyond the time or size retention, oldest first. */
  void applyRetention() {
    List<Retention.Candidate> candidates = new ArrayList<>();
    List<Block> current = blocks.snapshot();
    for (Block b : current) {
      candidates.add(new Retention.Candidate(b.meta(), b.size()));
    }
    Set<String> doomed =
        Retention.deletable(candidates, retentionMs, retentionBytes, FileUtil.size(walDir));
    if (doomed.isEmpty()) {
      return;
    }
    List<Block> removed = new ArrayList<>();
    for (Block b : current) {
      if (doomed.contains(b.meta().ulid())) {
        removed.add(b);
      }
    }
    blocks.replace(removed, List.of());
    retentionDeleted.addAndGet(removed.size());
    log.info("retention deleted {} blocks: {}", removed.size(), removed);
  }
}
