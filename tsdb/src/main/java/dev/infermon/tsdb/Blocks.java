package dev.infermon.tsdb;

import dev.infermon.storage.Querier;
import dev.infermon.tsdb.block.Block;
import dev.infermon.tsdb.block.BlockMeta;
import dev.infermon.tsdb.block.BlockWriter;
import dev.infermon.tsdb.block.CorruptBlockException;
import dev.infermon.tsdb.block.Ulid;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open blocks of a data directory, oldest first. Readers take a consistent snapshot and a
 * reference on each block under a read lock; compaction and retention swap blocks under the write
 * lock, so a querier never sees a block half-removed.
 *
 * <p>Threading: thread-safe.
 */
final class Blocks {
  private static final Logger log = LoggerFactory.getLogger(Blocks.class);

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private List<Block> blocks;
  private final List<String> skipped;

  private Blocks(List<Block> blocks, List<String> skipped) {
    this.blocks = sorted(blocks);
    this.skipped = List.copyOf(skipped);
  }

  /**
   * Opens every block of {@code dir}. Leftovers of interrupted writes are deleted, as are blocks
   * that a newer block names as its parents (the process died between publishing a compacted block
   * and deleting its parents). A block that does not read is skipped, left on disk for inspection,
   * and reported with an error naming the file; start-up continues without its data.
   */
  static Blocks load(Path dir) throws IOException {
    List<Block> open = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (Path p : FileUtil.list(dir)) {
      String name = p.getFileName().toString();
      if (name.endsWith(BlockWriter.TMP_SUFFIX)) {
        log.info("deleting {}, left by an interrupted block write", p);
        FileUtil.deleteRecursively(p);
        continue;
      }
      if (!Ulid.isValid(name) || !Files.isDirectory(p)) {
        continue;
      }
      try {
        open.add(Block.open(p));
      } catch (CorruptBlockException | IOException e) {
        String msg = "block " + p + " skipped: " + e.getMessage();
        log.error("{}; its data is not queried; move or delete the directory to silence this", msg);
        skipped.add(msg);
      }
    }
    Set<String> parents = new HashSet<>();
    for (Block b : open) {
      for (BlockMeta.Parent parent : b.meta().compaction().parents()) {
        parents.add(parent.ulid());
      }
    }
    List<Block> kept = new ArrayList<>();
    for (Block b : open) {
      if (parents.contains(b.meta().ulid())) {
        log.info("deleting block {}: already compacted into a newer block", b.dir());
        b.closeAndDelete();
      } else {
        kept.add(b);
      }
    }
    return new Blocks(kept, skipped);
  }

  private static List<Block> sorted(Collection<Block> bs) {
    List<Block> out = new ArrayList<>(bs);
    out.sort(Comparator.comparingLong(b -> b.meta().minTime()));
    return List.copyOf(out);
  }

  /** Blocks skipped at load, with the reason. */
  List<String> skipped() {
    return skipped;
  }

  /** The current blocks, oldest first. The snapshot holds no references. */
  List<Block> snapshot() {
    lock.readLock().lock();
    try {
      return blocks;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Opens a querier on every block into {@code out}, atomically with respect to swaps. */
  void queriers(List<Querier> out) {
    lock.readLock().lock();
    try {
      for (Block b : blocks) {
        out.add(b.querier());
      }
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * End of the newest range of the head's blocks, those not backfilled ({@link
   * BlockMeta.Compaction#backfilled}), or {@link Long#MIN_VALUE} when there is none: the head's
   * samples before it are in blocks, those after it may be only in the write-ahead log.
   */
  long headMaxTime() {
    long m = Long.MIN_VALUE;
    for (Block b : snapshot()) {
      if (!b.meta().compaction().backfilled()) {
        m = Math.max(m, b.meta().maxTime());
      }
    }
    return m;
  }

  /** Start of the oldest block's range, or {@link Long#MAX_VALUE} when there is none. */
  long minTime() {
    List<Block> bs = snapshot();
    return bs.isEmpty() ? Long.MAX_VALUE : bs.get(0).meta().minTime();
  }

  /**
   * Replaces {@code removed} with {@code added} (either may be empty) and deletes the removed
   * blocks' files once no querier uses them.
   */
  void replace(Collection<Block> removed, Collection<Block> added) {
    lock.writeLock().lock();
    try {
      List<Block> next = new ArrayList<>(blocks);
      next.removeAll(removed);
      next.addAll(added);
      blocks = sorted(next);
    } finally {
      lock.writeLock().unlock();
    }
    for (Block b : removed) {
      b.closeAndDelete();
    }
  }

  /** Closes every block (files stay). */
  void closeAll() {
    lock.writeLock().lock();
    try {
      for (Block b : blocks) {
        b.close();
      }
      blocks = List.of();
    } finally {
      lock.writeLock().unlock();
    }
  }
}
