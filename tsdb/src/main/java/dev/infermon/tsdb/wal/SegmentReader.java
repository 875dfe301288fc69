package dev.infermon.tsdb.wal;

import dev.infermon.tsdb.encoding.CorruptDataException;
import dev.infermon.tsdb.encoding.DecodingBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Reads the frames of one segment file in order, verifying each checksum. Reading stops at the end
 * of the file or at the first frame that is torn (the file ends inside it) or corrupt (bad length
 * or checksum); {@link #corruption()} then says where and why, and {@link #validLength()} is the
 * offset up to which the segment is good. Not thread-safe.
 */
final class SegmentReader implements AutoCloseable {
  private final Path path;
  private final ByteBuffer data;
  private int pos;
  private int recordStart;
  private ByteBuffer record;
  private String corruption;
  private int goodEnd;

  private SegmentReader(Path path, ByteBuffer data) {
    this.path = path;
    this.data = data;
  }

  static SegmentReader open(Path path) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size > Integer.MAX_VALUE) {
        throw new IOException("segment larger than 2 GiB: " + path);
      }
      // Reading into the heap rather than mapping: a segment is read once at start-up, and a heap
      // copy cannot fault with SIGBUS if the file is truncated concurrently by repair.
      ByteBuffer buf = ByteBuffer.allocate((int) size);
      while (buf.hasRemaining() && ch.read(buf) >= 0) {
        // keep reading
      }
      buf.flip();
      SegmentReader r = new SegmentReader(path, buf);
      r.readHeader();
      return r;
    }
  }

  private void readHeader() {
    if (data.limit() < WalFormat.SEGMENT_HEADER_SIZE) {
      corruption = "segment header torn (" + data.limit() + " bytes)";
      return;
    }
    int magic = data.getInt(0);
    if (magic != WalFormat.SEGMENT_MAGIC) {
      corruption = String.format("bad segment magic 0x%08x", magic);
      return;
    }
    int version = data.get(4) & 0xFF;
    if (version != WalFormat.SEGMENT_VERSION) {
      corruption = "unsupported segment version " + version;
      return;
    }
    pos = WalFormat.SEGMENT_HEADER_SIZE;
    goodEnd = pos;
  }

  Path path() {
    return path;
  }

  /** Advances to the next good record; false at the end of the segment or at corruption. */
  boolean next() {
    record = null;
    if (corruption != null || pos == data.limit()) {
      return false;
    }
    recordStart = pos;
    int left = data.limit() - pos;
    if (left < WalFormat.FRAME_HEADER_SIZE) {
      corruption = "torn frame header (" + left + " bytes left)";
      return false;
    }
    int len = data.getInt(pos);
    int crc = data.getInt(pos + 4);
    if (len <= 0 || len > WalFormat.MAX_RECORD_SIZE) {
      corruption = "invalid record length " + Integer.toUnsignedString(len);
      return false;
    }
    if (len > left - WalFormat.FRAME_HEADER_SIZE) {
      corruption =
          "torn record: length " + len + " but " + (left - WalFormat.FRAME_HEADER_SIZE) + " left";
      return false;
    }
    CRC32C c = new CRC32C();
    c.update(data.duplicate().position(pos).limit(pos + 4));
    int payloadStart = pos + WalFormat.FRAME_HEADER_SIZE;
    c.update(data.duplicate().position(payloadStart).limit(payloadStart + len));
    if ((int) c.getValue() != crc) {
      corruption = "checksum mismatch";
      return false;
    }
    record = data.slice(payloadStart, len);
    pos = payloadStart + len;
    goodEnd = pos;
    return true;
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
   * a collision); reading stops and {@link #validLength()} excludes it.
   */
  void markCorrupt(CorruptDataException e) {
    corruption = "record does not decode: " + e.getMessage();
    pos = recordStart;
    goodEnd = recordStart;
    record = null;
  }

  /** Why reading stopped early, or null when the segment was read to its end. */
  String corruption() {
    return corruption;
  }

  /** Bytes from the start of the file that hold good frames (0 when the header is bad). */
  int validLength() {
    return corruption == null ? data.limit() : goodEnd;
  }

  int length() {
    return data.limit();
  }

  @Override
  public void close() {}
}
