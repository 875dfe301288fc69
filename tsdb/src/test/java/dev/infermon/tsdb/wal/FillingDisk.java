package dev.infermon.tsdb.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Segment channels of a disk that fills up: while {@link #full} is set, every write goes to {@code
 * /dev/full}, so it fails with the kernel's own ENOSPC as the JDK reports it ("No space left on
 * device"); otherwise writes reach the real segment file. No mount needed.
 */
final class FillingDisk implements WalWriter.SegmentChannels {
  volatile boolean full;

  @Override
  public FileChannel open(Path segment) throws IOException {
    return new Channel(WalWriter.FILES.open(segment));
  }

  private final class Channel extends FileChannel {
    private final FileChannel file;

    Channel(FileChannel file) {
      this.file = file;
    }

    private int failOrWrite(ByteBuffer src, long position) throws IOException {
      if (full) {
        try (FileChannel devFull =
            FileChannel.open(Path.of("/dev/full"), StandardOpenOption.WRITE)) {
          return devFull.write(src);
        }
      }
      return position < 0 ? file.write(src) : file.write(src, position);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      return failOrWrite(src, -1);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      return failOrWrite(src, position);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      long n = 0;
      for (int i = offset; i < offset + length; i++) {
        n += write(srcs[i]);
      }
      return n;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return file.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return file.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return file.read(dst, position);
    }

    @Override
    public long position() throws IOException {
      return file.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      file.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return file.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      file.truncate(size);
      return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      file.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target)
        throws IOException {
      return file.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count)
        throws IOException {
      throw new UnsupportedOperationException();
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      return file.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return file.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return file.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      file.close();
    }
  }
}
