package dev.infermon.tsdb.head;

import dev.infermon.tsdb.chunkenc.XorIterator;
import dev.infermon.tsdb.fileutil.ChannelIo;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the head keeps its completed chunks: written once, back to back, into numbered pages; a
 * chunk is named by a reference (page number in the high 32 bits, offset in the low 32) and its
 * length is stored in front of its bytes as an unsigned varint. A page is dropped whole once every
 * chunk in it ends before the head's new start ({@link #truncateBefore}).
 *
 * <p>Without a directory ({@link #onHeap()}: tests, tools) pages are Java arrays that start at 16
 * KiB and double up to 1 MiB, one array header per MiB rather than one per chunk. With one ({@link
 * #inDirectory}), pages are segment files written with positional writes and read through read-only
 * memory maps, as Prometheus keeps its full head chunks in {@code chunks_head}: the bytes sit in
 * the page cache, which the kernel can reclaim, instead of on the Java heap, and are resident in
 * this process only while a query reads them. The files are a cache of the head, never read at
 * start-up (the write-ahead log is replayed instead), so they need no fsync and no recovery; a
 * segment that cannot be written is logged and the store goes on in arrays.
 *
 * <p>Threading: {@link #put}, {@link #truncateBefore} and {@link #close} are synchronized. {@link
 * #view()} returns an immutable view that any thread may read without a lock; it keeps every page
 * it holds readable, even after truncation dropped the page from the store (a dropped segment's
 * file is deleted, its mapping lives until the view is collected), so a query that took a snapshot
 * before a truncation can finish reading it.
 */
final class ChunkStore implements Closeable {
  private static final Logger log = LoggerFactory.getLogger(ChunkStore.class);

  static final int MIN_PAGE = 16 << 10;
  static final int MAX_PAGE = 1 << 20;
  static final int SEGMENT_BYTES = 16 << 20;

  /** A segment file: written through its channel, read through its read-only map. */
  private record Segment(Path path, FileChannel channel, MappedByteBuffer map) {}

  private final Path dir; // null: arrays only
  private final int segmentBytes;
  private volatile View view = new View(PageTable.empty());
  private PageTable<Object> table = PageTable.empty(); // guarded by this
  private int used; // bytes used in the last page; guarded by this
  private int capacity; // of the last page; guarded by this
  private long pageBytes; // guarded by this
  private boolean filesFailed; // guarded by this
  private byte[] scratch = new byte[256]; // prefix + chunk for one write; guarded by this

  private ChunkStore(Path dir, int segmentBytes) {
    this.dir = dir;
    this.segmentBytes = segmentBytes;
  }

  /** A store of Java arrays. */
  static ChunkStore onHeap() {
    return new ChunkStore(null, 0);
  }

  /**
   * A store of segment files in {@code dir}, which is created if absent; segments left there by an
   * earlier process are deleted.
   *
   * @throws IOException when the directory cannot be created or cleared
   */
  static ChunkStore inDirectory(Path dir) throws IOException {
    return inDirectory(dir, SEGMENT_BYTES);
  }

  /**
   * As {@link #inDirectory(Path)}, with segments of {@code segmentBytes} (tests use small ones).
   */
  static ChunkStore inDirectory(Path dir, int segmentBytes) throws IOException {
    if (segmentBytes < 64) {
      throw new IllegalArgumentException("segment size must be at least 64 bytes: " + segmentBytes);
    }
    Files.createDirectories(dir);
    try (Stream<Path> old = Files.list(dir)) {
      for (Path p : (Iterable<Path>) old::iterator) {
        if (isSegmentName(p.getFileName().toString())) {
          Files.delete(p);
        }
      }
    }
    return new ChunkStore(dir, segmentBytes);
  }

  /**
   * Stores {@code src[off, off+len)}, a completed chunk whose newest sample is at {@code maxTime};
   * returns its reference.
   */
  synchronized long put(byte[] src, int off, int len, long maxTime) {
    int need = prefixBytes(len) + len;
    if (table.size() == 0 || used + need > capacity) {
      addPage(need);
    }
    int page = table.next() - 1;
    int at = used;
    Object p = table.page(page);
    if (p instanceof byte[] a) {
      System.arraycopy(src, off, a, writePrefix(a, at, len), len);
    } else if (!write((Segment) p, at, src, off, len, need)) {
      // This segment failed: what it holds stays readable, new chunks go to arrays.
      addPage(need);
      return put(src, off, len, maxTime);
    }
    used = at + need;
    table.raiseLastMaxTime(maxTime);
    return ref(page, at);
  }

  /** The pages as they are now. */
  View view() {
    return view;
  }

  /**
   * Drops every leading page whose chunks all end before {@code mint}, never the one being written.
   * Call after the series dropped their references to such chunks.
   *
   * @return the number of pages dropped
   */
  synchronized int truncateBefore(long mint) {
    PageTable<Object> t = table;
    table = t.truncateBefore(mint, this::drop);
    view = new View(table);
    return t.size() - table.size();
  }

  /** Bytes held in pages now (whole arrays; written bytes of segments). */
  synchronized long bytes() {
    return pageBytes;
  }

  /** Pages in use (for tests and stats). */
  synchronized int pages() {
    return table.size();
  }

  /** Closes and deletes the segment files; views taken before stay readable. Idempotent. */
  @Override
  public synchronized void close() {
    for (int n = table.first; n < table.next(); n++) {
      drop(table.page(n));
    }
    table = PageTable.empty();
    used = 0;
    capacity = 0;
  }

  private void addPage(int need) {
    Object p = null;
    int cap;
    if (dir != null && !filesFailed) {
      cap = Math.max(need, segmentBytes);
      p = createSegment(table.next(), cap);
    }
    if (p == null) {
      cap = Math.max(need, Math.min(MAX_PAGE, Math.max(MIN_PAGE, lastArrayLength() * 2)));
      p = new byte[cap];
      pageBytes += cap;
    } else {
      cap = ((Segment) p).map().capacity();
    }
    table = table.plus(p);
    used = 0;
    capacity = cap;
    view = new View(table); // published before any reference into the page is handed out
  }

  private int lastArrayLength() {
    return table.size() > 0 && table.page(table.next() - 1) instanceof byte[] a ? a.length : 0;
  }

  private Segment createSegment(int number, int cap) {
    Path path = dir.resolve(String.format("%08d", number));
    FileChannel ch = null;
    try {
      ch =
          FileChannel.open(
              path,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      ch.write(ByteBuffer.wrap(new byte[1]), cap - 1L); // sparse: the map needs the whole length
      return new Segment(path, ch, ch.map(FileChannel.MapMode.READ_ONLY, 0, cap));
    } catch (IOException | RuntimeException e) {
      failed("cannot create head chunk segment " + path, e);
      closeQuietly(ch);
      return null;
    }
  }

  private boolean write(Segment s, int at, byte[] src, int off, int len, int need) {
    if (scratch.length < need) {
      scratch = new byte[Math.max(need, scratch.length * 2)];
    }
    System.arraycopy(src, off, scratch, writePrefix(scratch, 0, len), len);
    ByteBuffer b = ByteBuffer.wrap(scratch, 0, need);
    try {
      ChannelIo.writeFully(s.channel(), b, at);
      pageBytes += need;
      return true;
    } catch (IOException | RuntimeException e) {
      failed("cannot write head chunk segment " + s.path(), e);
      return false;
    }
  }

  private void failed(String what, Exception e) {
    filesFailed = true;
    log.error("{}: keeping completed head chunks on the Java heap from now on", what, e);
  }

  private void drop(Object page) {
    if (page instanceof byte[] a) {
      pageBytes -= a.length;
    } else {
      Segment s = (Segment) page;
      closeQuietly(s.channel());
      try {
        Files.deleteIfExists(s.path());
      } catch (IOException e) {
        log.warn("cannot delete head chunk segment {}", s.path(), e);
      }
    }
  }

  private static void closeQuietly(FileChannel ch) {
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // nothing to keep: the segment is being abandoned
      }
    }
  }

  static boolean isSegmentName(String name) {
    return name.length() == 8 && name.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  /** Readable pages at one moment. Immutable; any thread. */
  static final class View {
    private final PageTable<Object> table;

    View(PageTable<Object> table) {
      this.table = table;
    }

    /** An iterator over the chunk {@code ref} names. */
    XorIterator iterator(long ref) {
      Object p = table.page(page(ref));
      int at = offset(ref);
      if (p instanceof byte[] a) {
        int len = readPrefix(a, at);
        return XorIterator.over(a, at + prefixBytes(len), len);
      }
      byte[] b = bytes(ref);
      return XorIterator.over(b, 0, b.length);
    }

    /**
     * Points {@code it} at the chunk {@code ref} names, as {@link #iterator} would a new one. A
     * chunk in a segment is copied into {@code scratch} (made or grown if null or too small), so
     * {@code it} must be done with what scratch held; returns the scratch array now.
     */
    byte[] reset(XorIterator it, long ref, byte[] scratch) {
      Object p = table.page(page(ref));
      int at = offset(ref);
      if (p instanceof byte[] a) {
        int len = readPrefix(a, at);
        it.reset(a, at + prefixBytes(len), len);
        return scratch;
      }
      MappedByteBuffer m = ((Segment) p).map();
      int len = segmentPrefix(m, at);
      byte[] b = scratch != null && scratch.length >= len ? scratch : new byte[Math.max(len, 256)];
      m.get(at + prefixBytes(len), b, 0, len);
      it.reset(b, 0, len);
      return b;
    }

    /** A copy of the chunk's bytes. */
    byte[] bytes(long ref) {
      Object p = table.page(page(ref));
      int at = offset(ref);
      if (p instanceof byte[] a) {
        int len = readPrefix(a, at);
        int body = at + prefixBytes(len);
        return Arrays.copyOfRange(a, body, body + len);
      }
      MappedByteBuffer m = ((Segment) p).map();
      int len = segmentPrefix(m, at);
      byte[] out = new byte[len];
      m.get(at + prefixBytes(len), out, 0, len);
      return out;
    }

    private static int segmentPrefix(MappedByteBuffer m, int at) {
      int len = 0;
      for (int shift = 0; ; shift += 7) {
        byte b = m.get(at++);
        len |= (b & 0x7f) << shift;
        if (b >= 0) {
          return len;
        }
      }
    }
  }

  static long ref(int page, int offset) {
    return ((long) page << 32) | (offset & 0xffffffffL);
  }

  static int page(long ref) {
    return (int) (ref >>> 32);
  }

  static int offset(long ref) {
    return (int) ref;
  }

  /** Bytes that the length prefix of a {@code len}-byte chunk takes. */
  static int prefixBytes(int len) {
    int n = 1;
    while ((len >>>= 7) != 0) {
      n++;
    }
    return n;
  }

  /** Writes {@code len} as an unsigned varint at {@code dst[at]}; returns the position after it. */
  static int writePrefix(byte[] dst, int at, int len) {
    while ((len & ~0x7f) != 0) {
      dst[at++] = (byte) ((len & 0x7f) | 0x80);
      len >>>= 7;
    }
    dst[at++] = (byte) len;
    return at;
  }

  static int readPrefix(byte[] p, int at) {
    int len = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = p[at++];
      len |= (b & 0x7f) << shift;
      if (b >= 0) {
        return len;
      }
    }
  }
}
