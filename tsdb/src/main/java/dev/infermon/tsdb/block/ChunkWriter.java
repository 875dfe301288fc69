package dev.infermon.tsdb.block;

import dev.infermon.tsdb.encoding.EncodingBuffer;
import dev.infermon.tsdb.fileutil.ChannelIo;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Writes encoded chunks into a block's {@code chunks/} segment files and hands back their
 * references. Buffered; bytes are synced when the whole block directory is published. Not
 * thread-safe.
 */
final class ChunkWriter implements AutoCloseable {
  /** Opens a chunk segment file; a test hands out streams that fail as a full disk does. */
  @FunctionalInterface
  interface SegmentFiles {
    OutputStream open(Path segment) throws IOException;
  }

  static final SegmentFiles FILES = p -> ChannelIo.sliced(Files.newOutputStream(p));

  private final Path blockDir;
  private final long segmentBytes;
  private final SegmentFiles files;
  private final EncodingBuffer head = new EncodingBuffer(16);
  private OutputStream out;
  private int seq;
  private long offset;

  ChunkWriter(Path blockDir, long segmentBytes) throws IOException {
    this(blockDir, segmentBytes, FILES);
  }

  ChunkWriter(Path blockDir, long segmentBytes, SegmentFiles files) throws IOException {
    if (segmentBytes < ChunkFormat.HEADER_SIZE + 64 || segmentBytes > 0xFFFFFFFFL) {
      throw new IllegalArgumentException("chunk segment size out of range: " + segmentBytes);
    }
    this.blockDir = blockDir;
    this.segmentBytes = segmentBytes;
    this.files = files;
    Files.createDirectories(blockDir.resolve(ChunkFormat.DIR));
  }

  /**
   * Appends one chunk and returns its reference.
   *
   * @param data the encoded chunk, {@code data[0, len)}
   * @param encoding {@link ChunkFormat#ENCODING_XOR} or {@link ChunkFormat#ENCODING_INT}
   */
  long write(byte[] data, int len, int encoding) throws IOException {
    head.reset();
    head.putUvarint(len);
    head.putByte(encoding);
    long size = head.length() + len + 4L;
    if (out == null || offset + size > segmentBytes) {
      cut();
    }
    long ref = ChunkFormat.ref(seq, offset);
    CRC32C crc = new CRC32C();
    crc.update(encoding);
    crc.update(data, 0, len);
    out.write(head.array(), 0, head.length());
    out.write(data, 0, len);
    int c = (int) crc.getValue();
    out.write(new byte[] {(byte) (c >>> 24), (byte) (c >>> 16), (byte) (c >>> 8), (byte) c});
    offset += size;
    return ref;
  }

  private void cut() throws IOException {
    if (out != null) {
      OutputStream o = out;
      out = null;
      o.close();
    }
    seq++;
    out =
        new java.io.BufferedOutputStream(
            files.open(ChunkFormat.segmentPath(blockDir, seq)), 1 << 16);
    EncodingBuffer h = new EncodingBuffer(ChunkFormat.HEADER_SIZE);
    h.putBE32(ChunkFormat.MAGIC);
    h.putByte(ChunkFormat.VERSION);
    h.putByte(0);
    h.putBE16(0);
    out.write(h.array(), 0, h.length());
    offset = h.length();
  }

  @Override
  public void close() throws IOException {
    OutputStream o = out;
    out = null; // closed even when its last flush fails, so a second close does not retry it
    if (o != null) {
      o.close();
    }
  }
}
