package dev.infermon.tsdb.encoding;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A growable byte array written front to back. Not thread-safe; reused by its owner after {@link
 * #reset()} so hot paths do not allocate.
 */
public final class EncodingBuffer {
  private byte[] buf;
  private int len;

  public EncodingBuffer() {
    this(256);
  }

  public EncodingBuffer(int initialCapacity) {
    if (initialCapacity < 1) {
      throw new IllegalArgumentException("initialCapacity must be positive: " + initialCapacity);
    }
    buf = new byte[initialCapacity];
  }

  /** Forgets the content, keeps the capacity. */
  public void reset() {
    len = 0;
  }

  /** Number of bytes written. */
  public int length() {
    return len;
  }

  /** The backing array; valid up to {@link #length()} until the next write. */
  public byte[] array() {
    return buf;
  }

  /** A copy of the content. */
  public byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  private void ensure(int extra) {
    if (len + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
    }
  }

  public void putByte(int b) {
    ensure(1);
    buf[len++] = (byte) b;
  }

  public void putBytes(byte[] b, int off, int n) {
    ensure(n);
    System.arraycopy(b, off, buf, len, n);
    len += n;
  }

  public void putBE16(int v) {
    ensure(2);
    buf[len++] = (byte) (v >>> 8);
    buf[len++] = (byte) v;
  }

  public void putBE32(int v) {
    ensure(4);
    buf[len++] = (byte) (v >>> 24);
    buf[len++] = (byte) (v >>> 16);
    buf[len++] = (byte) (v >>> 8);
    buf[len++] = (byte) v;
  }

  public void putBE64(long v) {
    putBE32((int) (v >>> 32));
    putBE32((int) v);
  }

  /** Overwrites four bytes at {@code pos}, e.g. a length field reserved earlier. */
  public void setBE32(int pos, int v) {
    if (pos < 0 || pos + 4 > len) {
      throw new IllegalArgumentException("position out of range: " + pos);
    }
    buf[pos] = (byte) (v >>> 24);
    buf[pos + 1] = (byte) (v >>> 16);
    buf[pos + 2] = (byte) (v >>> 8);
    buf[pos + 3] = (byte) v;
  }

  /** An unsigned LEB128 varint (Go's {@code binary.PutUvarint}); 1 to 10 bytes. */
  public void putUvarint(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      buf[len++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[len++] = (byte) v;
  }

  /** A signed varint, zig-zag encoded (Go's {@code binary.PutVarint}). */
  public void putVarint(long v) {
    putUvarint((v << 1) ^ (v >> 63));
  }

  public void putDouble(double v) {
    putBE64(Double.doubleToRawLongBits(v));
  }

  /** A UTF-8 string prefixed with its byte length as a uvarint. */
  public void putUvarintString(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    putUvarint(b.length);
    putBytes(b, 0, b.length);
  }

  /** Pads with zero bytes until the length is a multiple of {@code alignment}. */
  public void alignTo(int alignment) {
    while (len % alignment != 0) {
      putByte(0);
    }
  }

  /** CRC32C (Castagnoli) of {@code [from, length())}. */
  public int crc32c(int from) {
    CRC32C crc = new CRC32C();
    crc.update(buf, from, len - from);
    return (int) crc.getValue();
  }
}
