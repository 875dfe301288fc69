package dev.infermon.tsdb.wal;

import dev.infermon.tsdb.encoding.CorruptDataException;
import dev.infermon.tsdb.encoding.DecodingBuffer;
import dev.infermon.tsdb.fileutil.ChannelIo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads the frames of one segment file in order, verifying each checksum. A frame that is torn, has
 * an impossible length or a checksum mismatch does not end the segment: the reader scans forward,
 * byte by byte, for the next offset where a whole frame with a valid checksum starts, and goes on
 * from there, so a damaged range costs only the records inside it. {@link #damages()} lists the
 * ranges skipped; a bad segment header is listed too, and the frames after it are still read. Not
 * thread-safe.
 */
final class SegmentReader implements AutoCloseable {
  /**
   * Resynchronisation checksums at most this many times the segment's length before giving up on
   * the rest of the segment: random bytes look like a frame length every 32nd offset or so, and a
   * checksum over a long false candidate costs its length.
   */
  private static final int RESYNC_BUDGET_FACTOR = 4;

  /**
   * A skipped byte range {@code [start, end)} of the segment and why.
   *
   * @param header true when the damage is the segment header (no record is lost by it)
   */
  record Damage(int start, int end, String reason, boolean header) {
    int length() {
      return end - start;
    }
  }

  private final Path path;
  private final ByteBuffer data;
  private final List<Damage> damages = new ArrayList<>();
  private long resyncBudget;
  private int pos;
  private int recordStart;
  private ByteBuffer record;

  private SegmentReader(Path path, ByteBuffer data) {
    this.path = path;
    this.data = data;
    this.resyncBudget = (long) RESYNC_BUDGET_FACTOR * Math.max(data.limit(), 1 << 16);
  }

  static SegmentReader open(Path path) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size > Integer.MAX_VALUE) {
        throw new IOException("segment larger than 2 GiB: " + path);
      }
      // Reading into the heap rather than mapping: a segment is read once at start-up, and a heap
      // copy cannot fault with SIGBUS if the file is truncated concurrently by repair.
      // In slices: one read of the whole segment left a native buffer of its size on the thread.
      ByteBuffer buf = ByteBuffer.allocate((int) size);
      ChannelIo.readFully(ch, buf);
      buf.flip();
      SegmentReader r = new SegmentReader(path, buf);
      r.readHeader();
      return r;
    }
  }

  private void readHeader() {
    int n = Math.min(data.limit(), WalFormat.SEGMENT_HEADER_SIZE);
    pos = n;
    if (n < WalFormat.SEGMENT_HEADER_SIZE) {
      damages.add(new Damage(0, n, "segment header torn (" + n + " bytes)", true));
      return;
    }
    int magic = data.getInt(0);
    int version = data.get(4) & 0xFF;
    if (magic != WalFormat.SEGMENT_MAGIC) {
      damages.add(new Damage(0, n, String.format("bad segment magic 0x%08x", magic), true));
    } else if (version != WalFormat.SEGMENT_VERSION) {
      damages.add(new Damage(0, n, "unsupported segment version " + version, true));
    }
  }

  Path path() {
    return path;
  }

  /** Advances to the next good record; false at the end of the segment. */
  boolean next() {
    record = null;
    if (pos >= data.limit()) {
      return false;
    }
    String why = frameProblem(pos);
    if (why != null) {
      int start = pos;
      int next = resync(pos + 1);
      damages.add(new Damage(start, next, why, false));
      pos = next;
      if (pos >= data.limit()) {
        return false;
      }
    }
    recordStart = pos;
    int len = data.getInt(pos);
    int payloadStart = pos + WalFormat.FRAME_HEADER_SIZE;
    record = data.slice(payloadStart, len);
    pos = payloadStart + len;
    return true;
  }

  /** Why no good frame starts at {@code at}, or null when one does. */
  private String frameProblem(int at) {
    int left = data.limit() - at;
    if (left < WalFormat.FRAME_HEADER_SIZE) {
      return "torn frame header (" + left + " bytes left)";
    }
    int len = data.getInt(at);
    if (len <= 0 || len > WalFormat.MAX_RECORD_SIZE) {
      return "invalid record length " + Integer.toUnsignedString(len);
    }
    if (len > left - WalFormat.FRAME_HEADER_SIZE) {
      return "torn record: length "
          + len
          + " but "
          + (left - WalFormat.FRAME_HEADER_SIZE)
          + " left";
    }
    return checksumMatches(at, len) ? null : "checksum mismatch";
  }

  private boolean checksumMatches(int at, int len) {
    CRC32C c = new CRC32C();
    c.update(data.duplicate().position(at).limit(at + 4));
    int payloadStart = at + WalFormat.FRAME_HEADER_SIZE;
    c.update(data.duplicate().position(payloadStart).limit(payloadStart + len));
    return (int) c.getValue() == data.getInt(at + 4);
  }

  /**
   * The first offset at or after {@code from} where a whole frame with a valid checksum and a known
   * record type starts, or the segment's length when there is none (or the budget ran out). A false
   * match needs a 32-bit checksum collision.
   */
  private int resync(int from) {
    int limit = data.limit() - WalFormat.FRAME_HEADER_SIZE;
    for (int at = from; at < limit; at++) {
      int len = data.getInt(at);
      if (len <= 0 || len > limit - at) {
        continue;
      }
      int type = data.get(at + WalFormat.FRAME_HEADER_SIZE);
      if (type != WalFormat.RECORD_SERIES && type != WalFormat.RECORD_SAMPLES) {
        continue;
      }
      resyncBudget -= len;
      if (resyncBudget < 0) {
        return data.limit();
      }
      if (checksumMatches(at, len)) {
        return at;
      }
    }
    return data.limit();
  }

  /** The payload of the current record, positioned at 0. */
  DecodingBuffer record() {
    return new DecodingBuffer(record, path + "@" + recordStart);
  }

  /** Offset of the current record's frame. */
  int recordOffset() {
    return recordStart;
  }

  /**
   * Marks the current record bad after it passed its checksum but failed to decode (a format bug or
   * a collision): it is listed as damage and reading goes on after it. What the record delivered
   * before the failure stays delivered.
   */
  void markCorrupt(CorruptDataException e) {
    damages.add(new Damage(recordStart, pos, "record does not decode: " + e.getMessage(), false));
    record = null;
  }

  /** The ranges skipped so far, in file order; empty when the segment is whole. */
  List<Damage> damages() {
    return damages;
  }

  /**
   * The good frames of the segment, in order, as byte ranges {@code [start, end)} between the
   * damages (call after reading to the end).
   */
  List<int[]> goodRanges() {
    List<int[]> out = new ArrayList<>();
    int from = WalFormat.SEGMENT_HEADER_SIZE;
    for (Damage d : damages) {
      if (d.header()) {
        continue;
      }
      if (d.start() > from) {
        out.add(new int[] {from, d.start()});
      }
      from = Math.max(from, d.end());
    }
    if (data.limit() > from) {
      out.add(new int[] {from, data.limit()});
    }
    return out;
  }

  /** The segment's bytes in {@code [start, end)}. */
  ByteBuffer bytes(int start, int end) {
    return data.slice(start, end - start);
  }

  int length() {
    return data.limit();
  }

  @Override
  public void close() {}
}
