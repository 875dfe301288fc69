package dev.infermon.tsdb.wal;

import dev.infermon.storage.StorageUnavailableException;
import dev.infermon.tsdb.encoding.EncodingBuffer;
import dev.infermon.tsdb.fileutil.ChannelIo;
import dev.infermon.tsdb.fileutil.FileUtil;
import dev.infermon.tsdb.fileutil.IoErrors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends framed records to numbered segment files ({@code docs/format/wal.md}).
 *
 * <p>Durability: {@link #write} returns after the frames were handed to the operating system with
 * {@code write(2)}; the bytes then sit in the page cache, which survives the death of the process
 * ({@code kill -9}), so every batch whose write returned is replayed after a restart. Surviving a
 * power failure or a kernel crash needs {@code fsync}: it runs when a segment is closed, on {@link
 * #sync()} (which the database calls on a timer, {@code walSyncInterval}), and on {@link #close()};
 * so at most one sync interval of acknowledged samples can be lost to a machine crash.
 *
 * <p>Threading: thread-safe. Writers serialize on one lock held only for the {@code write(2)} of an
 * already framed batch; encoding happens before, and the fsync of a closed segment after. An
 * interrupt of a thread inside a write or a sync closes the segment's channel (as it does any
 * {@link FileChannel}); the log reopens it, with the interrupt set aside meanwhile and restored
 * after, so an interrupted writer's batch is still written and the other writers never see it.
 */
public final class WalWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WalWriter.class);

  /** Segment size at which a new segment is started, as in Prometheus. */
  public static final long DEFAULT_SEGMENT_BYTES = 128L << 20;

  private final Path dir;
  private final long segmentBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private FileChannel segment;
  private int segmentIndex;
  private long segmentSize;
  private volatile boolean dirty;
  private boolean closed;
  private IOException failure;
  private final AtomicLong failedWrites = new AtomicLong();
  private final AtomicLong noSpaceErrors = new AtomicLong();

  /**
   * Opens segment files for writing: {@link #FILES} in production; a test hands out channels that
   * fail as a full disk does.
   */
  @FunctionalInterface
  interface SegmentChannels {
    FileChannel open(Path segment) throws IOException;
  }

  static final SegmentChannels FILES =
      p -> FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

  private final SegmentChannels channels;

  private WalWriter(Path dir, long segmentBytes, SegmentChannels channels) {
    this.dir = dir;
    this.segmentBytes = segmentBytes;
    this.channels = channels;
  }

  /**
   * Opens the log in {@code dir} (created when missing) and starts a new segment after the newest
   * segment or checkpoint found. Run {@link WalReplay} first: it repairs a corrupt tail.
   *
   * @param segmentBytes size at which a segment is closed and the next one started
   */
  public static WalWriter open(Path dir, long segmentBytes) throws IOException {
    return open(dir, segmentBytes, FILES);
  }

  static WalWriter open(Path dir, long segmentBytes, SegmentChannels channels) throws IOException {
    if (segmentBytes < 1024) {
      throw new IllegalArgumentException("segmentBytes must be at least 1024: " + segmentBytes);
    }
    IoErrors.createDirectories("cannot create the directory", dir);
    WalWriter w = new WalWriter(dir, segmentBytes, channels);
    WalDir.Contents c = WalDir.scan(dir);
    int next = Math.max(c.lastSegment(), c.checkpoint()) + 1;
    w.openSegment(next);
    return w;
  }

  public Path dir() {
    return dir;
  }

  /**
   * Writes a batch and clears it.
   *
   * @throws StorageUnavailableException when the log cannot be written (the message names the file
   *     and the operating system's reason, such as "No space left on device"); the batch is then
   *     not in the log, and a later write may succeed once the cause is gone
   */
  public void write(WalBatch batch) {
    if (batch.isEmpty()) {
      return;
    }
    EncodingBuffer frames = batch.frames();
    FileChannel closedSegment = null;
    lock.lock();
    try {
      ensureWritable();
      reopenIfClosed();
      if (segmentSize > WalFormat.SEGMENT_HEADER_SIZE
          && segmentSize + frames.length() > segmentBytes) {
        closedSegment = cut();
      }
      try {
        writeFrames(frames.array(), frames.length());
        segmentSize += frames.length();
        dirty = true;
      } catch (IOException e) {
        rewind(e);
        throw failed("write-ahead log: cannot write " + segmentPath(), e);
      }
    } catch (IOException e) {
      throw failed("write-ahead log", e);
    } finally {
      lock.unlock();
      batch.clear();
    }
    syncAndClose(closedSegment);
  }

  private StorageUnavailableException failed(String what, IOException e) {
    StorageUnavailableException u =
        new StorageUnavailableException(what + ": " + IoErrors.reason(e), e);
    failedWrites.incrementAndGet();
    if (u.noSpace()) {
      noSpaceErrors.incrementAndGet();
    }
    return u;
  }

  /** Writes that failed since the log was opened. */
  public long failedWrites() {
    return failedWrites.get();
  }

  /** Of {@link #failedWrites()}, those that failed for lack of space (ENOSPC, EDQUOT). */
  public long noSpaceErrors() {
    return noSpaceErrors.get();
  }

  /**
   * Closes the current segment and starts the next one, so everything written so far lies in
   * segments up to the returned index. Head compaction calls it before cutting a block, so that
   * those segments can later be checkpointed whole.
   */
  public int nextSegment() throws IOException {
    FileChannel closedSegment;
    int closedIndex;
    lock.lock();
    try {
      ensureWritable();
      reopenIfClosed();
      closedIndex = segmentIndex;
      closedSegment = cut();
    } finally {
      lock.unlock();
    }
    syncAndClose(closedSegment);
    return closedIndex;
  }

  /** Index of the segment being written. */
  public int currentSegment() {
    lock.lock();
    try {
      return segmentIndex;
    } finally {
      lock.unlock();
    }
  }

  /** Flushes the current segment to stable storage if anything was written since the last sync. */
  public void sync() throws IOException {
    if (!dirty) {
      return;
    }
    FileChannel ch;
    lock.lock();
    try {
      if (closed || segment == null) {
        return;
      }
      reopenIfClosed();
      ch = segment;
      dirty = false;
    } finally {
      lock.unlock();
    }
    try {
      ch.force(false);
    } catch (ClosedByInterruptException e) {
      // the interrupt closed the segment unsynced: the next write or sync reopens it and syncs
      dirty = true;
      throw e;
    } catch (ClosedChannelException e) {
      // the segment was closed by a cut, which synced it
    }
  }

  /** Syncs and closes the current segment. Idempotent. */
  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (segment != null) {
        reopenIfClosed();
        try {
          segment.force(false);
        } finally {
          segment.close();
          segment = null;
        }
      }
    } finally {
      lock.unlock();
    }
  }

  private void ensureWritable() throws IOException {
    if (closed) {
      throw new IllegalStateException("write-ahead log is closed");
    }
    if (failure != null) {
      throw new IOException(
          "an earlier failed write to "
              + dir
              + " could not be undone ("
              + failure.getMessage()
              + "); writes are refused",
          failure);
    }
  }

  /**
   * Writes frames at the segment's end. An interrupt of this thread during the write closes the
   * channel after an unknown part of the frames reached the file: the segment is reopened, cut back
   * to the last whole batch and written again, the interrupt set aside meanwhile.
   */
  private void writeFrames(byte[] b, int n) throws IOException {
    try {
      writeFully(segment, b, n);
    } catch (ClosedByInterruptException e) {
      asideFromInterrupt(
          () -> {
            reopenIfClosed();
            writeFully(segment, b, n);
            return null;
          });
    }
  }

  /**
   * Reopens the current segment when an interrupt closed its channel, cut back to the bytes of the
   * batches whose write returned; the caller's interrupt is set aside meanwhile (it would close the
   * new channel at once) and restored after. Holds the lock.
   */
  private void reopenIfClosed() throws IOException {
    if (segment == null || segment.isOpen()) {
      return;
    }
    segment =
        asideFromInterrupt(
            () -> {
              FileChannel ch;
              try {
                ch = FileChannel.open(segmentPath(), StandardOpenOption.WRITE);
              } catch (IOException e) {
                throw IoErrors.describe("cannot reopen segment", segmentPath(), e);
              }
              try {
                ch.truncate(segmentSize);
                ch.position(segmentSize);
              } catch (IOException e) {
                ch.close();
                throw IoErrors.describe("cannot reopen segment", segmentPath(), e);
              }
              return ch;
            });
    log.warn("write-ahead log: reopened {} after an interrupt closed it", segmentPath());
  }

  /** After a failed write, removes whatever part of the batch reached the file. */
  private void rewind(IOException cause) {
    try {
      reopenIfClosed();
      segment.truncate(segmentSize);
      segment.position(segmentSize);
    } catch (IOException e) {
      e.addSuppressed(cause);
      failure = e;
      log.error(
          "write-ahead log {} cannot be rewound after a failed write; refusing writes", dir, e);
    }
  }

  private FileChannel cut() throws IOException {
    FileChannel old = segment;
    asideFromInterrupt(
        () -> {
          openSegment(segmentIndex + 1);
          return null;
        });
    return old;
  }

  /** An operation on the log's files that throws {@link IOException}. */
  @FunctionalInterface
  private interface IoAction<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code a} with this thread's interrupt set aside, restored after: an interrupt would close
   * the channel {@code a} works on, and the log's own files are not the interrupted task's to drop.
   */
  private static <T> T asideFromInterrupt(IoAction<T> a) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      return a.run();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void openSegment(int index) throws IOException {
    Path p = WalFormat.segmentPath(dir, index);
    FileChannel ch;
    try {
      ch = channels.open(p);
    } catch (IOException e) {
      throw IoErrors.describe("cannot create segment", p, e);
    }
    try {
      EncodingBuffer h = new EncodingBuffer(WalFormat.SEGMENT_HEADER_SIZE);
      WalFormat.putSegmentHeader(h);
      writeFully(ch, h.array(), h.length());
      FileUtil.fsyncDir(dir);
    } catch (IOException e) {
      // Leave nothing behind, or the next attempt could not create the segment (CREATE_NEW).
      ch.close();
      Files.deleteIfExists(p);
      throw IoErrors.describe("cannot create segment", p, e);
    }
    segment = ch;
    segmentIndex = index;
    segmentSize = WalFormat.SEGMENT_HEADER_SIZE;
  }

  private Path segmentPath() {
    return WalFormat.segmentPath(dir, segmentIndex);
  }

  private static void syncAndClose(FileChannel ch) {
    if (ch == null) {
      return;
    }
    try (ch) {
      asideFromInterrupt(
          () -> {
            ch.force(false);
            return null;
          });
    } catch (IOException e) {
      log.warn("write-ahead log: cannot sync a closed segment", e);
    }
  }

  private static void writeFully(FileChannel ch, byte[] b, int n) throws IOException {
    ChannelIo.writeFully(ch, ByteBuffer.wrap(b, 0, n));
  }
}
