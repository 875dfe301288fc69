package dev.infermon.tsdb;

import dev.infermon.storage.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a data directory ({@code <dir>/lock}), so two processes never write the same
 * blocks and log. The operating system releases it when the process dies, so a crash never leaves a
 * stale lock behind. Holds the process id in the file for operators.
 */
final class DataDirLock implements AutoCloseable {
  static final String FILE = "lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * @throws StorageException when another process (or another open {@link Tsdb} of this process)
   *     holds the lock
   */
  static DataDirLock acquire(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      l = null;
    }
    if (l == null) {
      ch.close();
      throw new StorageException(
          "data directory " + dir + " is in use by another process (lock file " + file + ")");
    }
    ch.truncate(0);
    ch.write(
        ByteBuffer.wrap(
            (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
    return new DataDirLock(ch, l);
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
