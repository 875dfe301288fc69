package dev.infermon.tsdb.wal;

import dev.infermon.tsdb.encoding.EncodingBuffer;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Constants and names of the write-ahead log's on-disk format ({@code docs/format/wal.md}). A
 * segment is a header followed by frames; a frame is {@code len<4> crc32c<4> payload<len>} where
 * the checksum covers the four length bytes and the payload.
 */
final class WalFormat {
  /** "INWL": infermon write-ahead log. */
  static final int SEGMENT_MAGIC = 0x494E574C;

  static final int SEGMENT_VERSION = 1;
  static final int SEGMENT_HEADER_SIZE = 8;
  static final int FRAME_HEADER_SIZE = 8;

  /** No record is larger; a length field above it is corruption, not a reason to allocate. */
  static final int MAX_RECORD_SIZE = 256 << 20;

  static final int RECORD_SERIES = 1;
  static final int RECORD_SAMPLES = 2;

  static final Pattern SEGMENT_NAME = Pattern.compile("\\d{8}");
  static final Pattern CHECKPOINT_NAME = Pattern.compile("checkpoint\\.(\\d{8})");
  static final String TMP_SUFFIX = ".tmp";

  private WalFormat() {}

  static String segmentName(int index) {
    return String.format("%08d", index);
  }

  static Path segmentPath(Path dir, int index) {
    return dir.resolve(segmentName(index));
  }

  static String checkpointName(int index) {
    return "checkpoint." + segmentName(index);
  }

  static void putSegmentHeader(EncodingBuffer b) {
    b.putBE32(SEGMENT_MAGIC);
    b.putByte(SEGMENT_VERSION);
    b.putByte(0);
    b.putBE16(0);
  }

  /**
   * Appends a frame around the payload that was written to {@code b} from {@code payloadStart}
   * minus {@link #FRAME_HEADER_SIZE}: the caller reserved the header with {@link #beginFrame}.
   */
  static void endFrame(EncodingBuffer b, int frameStart) {
    int payloadLen = b.length() - frameStart - FRAME_HEADER_SIZE;
    b.setBE32(frameStart, payloadLen);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(b.array(), frameStart, 4);
    crc.update(b.array(), frameStart + FRAME_HEADER_SIZE, payloadLen);
    b.setBE32(frameStart + 4, (int) crc.getValue());
  }

  /** Reserves a frame header; returns the frame's start for {@link #endFrame}. */
  static int beginFrame(EncodingBuffer b) {
    int start = b.length();
    b.putBE64(0);
    return start;
  }
}
