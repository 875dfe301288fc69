package dev.infermon.tsdb.block;

import dev.infermon.storage.Querier;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An open, immutable on-disk block: its meta, its memory-mapped index and chunk files.
 *
 * <p>Lifetime: reference counted. The owner (the database) holds one reference from {@link #open}
 * and gives it up with {@link #close()} or {@link #closeAndDelete()}; every {@link #querier()}
 * holds one more until the querier is closed. The files of a block deleted by compaction or
 * retention are removed only when the last reference is gone, so a running query never loses the
 * data it reads.
 *
 * <p>Threading: thread-safe.
 */
public final class Block {
  private static final Logger log = LoggerFactory.getLogger(Block.class);

  private final Path dir;
  private final BlockMeta meta;
  private final IndexReader index;
  private final ChunkReader chunks;
  private final long size;
  private final AtomicInteger refs = new AtomicInteger(1);
  private volatile boolean deleteOnRelease;
  private volatile boolean ownerClosed;

  private Block(Path dir, BlockMeta meta, IndexReader index, ChunkReader chunks, long size) {
    this.dir = dir;
    this.meta = meta;
    this.index = index;
    this.chunks = chunks;
    this.size = size;
  }

  /**
   * Opens the block in {@code dir}, checking its meta, the index's table of contents, symbol table
   * and postings offset table, and the chunk files' headers.
   *
   * @throws CorruptBlockException naming the file that does not read
   */
  public static Block open(Path dir) throws IOException {
    BlockMeta meta = BlockMeta.read(dir);
    String name = dir.getFileName().toString();
    if (!meta.ulid().equals(name)) {
      throw new CorruptBlockException(
          dir.resolve(BlockMeta.FILE) + ": ulid " + meta.ulid() + " differs from directory name");
    }
    IndexReader index = IndexReader.open(dir.resolve(IndexFormat.FILE));
    ChunkReader chunks = ChunkReader.open(dir);
    long size = index.size() + chunks.size() + Files.size(dir.resolve(BlockMeta.FILE));
    return new Block(dir, meta, index, chunks, size);
  }

  public BlockMeta meta() {
    return meta;
  }

  public Path dir() {
    return dir;
  }

  /** Bytes on disk. */
  public long size() {
    return size;
  }

  /**
   * A read view that keeps the block's files until it is closed.
   *
   * @throws IllegalStateException when the block is already closed by its owner and unused
   */
  public Querier querier() {
    acquire();
    return new BlockQuerier(this);
  }

  IndexReader index() {
    return index;
  }

  ChunkReader chunks() {
    return chunks;
  }

  private void acquire() {
    while (true) {
      int r = refs.get();
      if (r <= 0) {
        throw new IllegalStateException("block " + dir + " is closed");
      }
      if (refs.compareAndSet(r, r + 1)) {
        return;
      }
    }
  }

  void release() {
    int r = refs.decrementAndGet();
    if (r == 0 && deleteOnRelease) {
      try {
        FileUtil.deleteRecursively(dir);
        log.info("deleted block {}", dir);
      } catch (IOException e) {
        log.warn("cannot delete block {}; the next start deletes it", dir, e);
      }
    }
  }

  /** Gives up the owner's reference. Idempotent. */
  public void close() {
    if (!ownerClosed) {
      synchronized (this) {
        if (ownerClosed) {
          return;
        }
        ownerClosed = true;
      }
      release();
    }
  }

  /**
   * Gives up the owner's reference and deletes the block's files once no querier uses them. The
   * caller must already have made the deletion safe (the data lives in another durable block, or is
   * beyond retention).
   */
  public void closeAndDelete() {
    deleteOnRelease = true;
    close();
  }

  @Override
  public String toString() {
    return "Block[" + meta.ulid() + " [" + meta.minTime() + ", " + meta.maxTime() + ")]";
  }
}
