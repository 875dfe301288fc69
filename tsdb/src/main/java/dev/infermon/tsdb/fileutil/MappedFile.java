package dev.infermon.tsdb.fileutil;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A whole file mapped read-only, of any length. One {@link MappedByteBuffer} holds at most 2 GiB,
 * so the file is mapped in overlapping windows of {@link #WINDOW} bytes plus {@link #OVERLAP}: any
 * region of at most {@code OVERLAP} bytes starting anywhere lies inside one window and is returned
 * as a zero-copy slice.
 *
 * <p>Threading: immutable after construction; slices are independent buffers, so readers on many
 * threads may share one instance. The mapping lives until the object is garbage collected (Java has
 * no supported unmap); on Linux a mapped file may be deleted while mapped.
 */
public final class MappedFile {
  static final int WINDOW_SHIFT = 30;
  static final long WINDOW = 1L << WINDOW_SHIFT;

  /** Largest region {@link #slice} returns without copying. */
  public static final int OVERLAP = 64 << 20;

  private final Path path;
  private final long length;
  private final MappedByteBuffer[] windows;

  private MappedFile(Path path, long length, MappedByteBuffer[] windows) {
    this.path = path;
    this.length = length;
    this.windows = windows;
  }

  /** Maps {@code path}; an empty file maps to zero windows. */
  public static MappedFile open(Path path) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long len = ch.size();
      int n = (int) ((len + WINDOW - 1) >>> WINDOW_SHIFT);
      MappedByteBuffer[] w = new MappedByteBuffer[n];
      for (int i = 0; i < n; i++) {
        long start = (long) i << WINDOW_SHIFT;
        long size = Math.min(len - start, WINDOW + OVERLAP);
        w[i] = ch.map(FileChannel.MapMode.READ_ONLY, start, size);
      }
      return new MappedFile(path, len, w);
    }
  }

  public Path path() {
    return path;
  }

  public long length() {
    return length;
  }

  /**
   * A read-only view of {@code [pos, pos+len)}, positioned at 0 and big-endian.
   *
   * @throws IllegalArgumentException when the region is outside the file or longer than {@link
   *     #OVERLAP} bytes (callers check sizes they read from disk before asking)
   */
  public ByteBuffer slice(long pos, int len) {
    if (pos < 0 || len < 0 || pos + len > length) {
      throw new IllegalArgumentException(
          "region [" + pos + ", " + (pos + len) + ") outside " + path + " of " + length + " bytes");
    }
    int w = (int) (pos >>> WINDOW_SHIFT);
    int off = (int) (pos & (WINDOW - 1));
    if (len > OVERLAP && off + (long) len > windows[w].capacity()) {
      throw new IllegalArgumentException("region of " + len + " bytes too large to map at " + pos);
    }
    return windows[w].slice(off, len);
  }

  /** The bytes from {@code pos} to the end of the file, when that is at most {@link #OVERLAP}. */
  public ByteBuffer tail(long pos) {
    return slice(pos, (int) Math.min(length - pos, Integer.MAX_VALUE));
  }
}
