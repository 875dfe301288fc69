package dev.infermon.tsdb.encoding;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Reads a byte region front to back: varints, big-endian integers, length-prefixed strings. Every
 * read is bounds-checked and throws {@link CorruptDataException} (naming {@link #what}) when the
 * region ends early or a varint overflows. Not thread-safe; the underlying buffer is not modified.
 */
public final class DecodingBuffer {
  private final ByteBuffer buf;
  private final int end;
  private final String what;
  private int pos;

  /**
   * Reads {@code buf} from its position to its limit without changing either.
   *
   * @param what names the region in error messages, e.g. the file and section
   */
  public DecodingBuffer(ByteBuffer buf, String what) {
    this.buf = buf;
    this.pos = buf.position();
    this.end = buf.limit();
    this.what = what;
  }

  public static DecodingBuffer of(byte[] b, int off, int len, String what) {
    return new DecodingBuffer(ByteBuffer.wrap(b, off, len), what);
  }

  public int position() {
    return pos;
  }

  public void position(int p) {
    if (p < 0 || p > end) {
      throw corrupt("position " + p + " outside region ending at " + end);
    }
    pos = p;
  }

  public int remaining() {
    return end - pos;
  }

  private void need(int n) {
    if (end - pos < n) {
      throw corrupt("unexpected end of data: need " + n + " bytes, have " + (end - pos));
    }
  }

  public CorruptDataException corrupt(String message) {
    return new CorruptDataException(what + ": " + message);
  }

  public int getByte() {
    need(1);
    return buf.get(pos++) & 0xFF;
  }

  public int getBE16() {
    need(2);
    int v = buf.getShort(pos) & 0xFFFF;
    pos += 2;
    return v;
  }

  public int getBE32() {
    need(4);
    int v = buf.getInt(pos);
    pos += 4;
    return v;
  }

  public long getBE64() {
    need(8);
    long v = buf.getLong(pos);
    pos += 8;
    return v;
  }

  public double getDouble() {
    return Double.longBitsToDouble(getBE64());
  }

  public long getUvarint() {
    long x = 0;
    int shift = 0;
    for (int i = 0; i < 10; i++) {
      int b = getByte();
      if (i == 9 && b > 1) {
        throw corrupt("uvarint overflows 64 bits");
      }
      x |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return x;
      }
      shift += 7;
    }
    throw corrupt("uvarint overflows 64 bits");
  }

  /** A uvarint that must fit a non-negative int (lengths, counts, symbol references). */
  public int getUvarintInt() {
    long v = getUvarint();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw corrupt("value out of int range: " + Long.toUnsignedString(v));
    }
    return (int) v;
  }

  public long getVarint() {
    long u = getUvarint();
    return (u >>> 1) ^ -(u & 1);
  }

  public String getUvarintString() {
    int n = getUvarintInt();
    need(n);
    String s;
    if (buf.hasArray()) {
      s = new String(buf.array(), buf.arrayOffset() + pos, n, StandardCharsets.UTF_8);
    } else {
      byte[] b = new byte[n];
      buf.get(pos, b);
      s = new String(b, StandardCharsets.UTF_8);
    }
    pos += n;
    return s;
  }

  public void skip(int n) {
    need(n);
    pos += n;
  }

  /** CRC32C (Castagnoli) of {@code [from, to)} of the underlying buffer. */
  public int crc32c(int from, int to) {
    if (from < 0 || to > end || from > to) {
      throw corrupt("checksum range [" + from + ", " + to + ") outside region");
    }
    CRC32C crc = new CRC32C();
    crc.update(buf.duplicate().limit(to).position(from));
    return (int) crc.getValue();
  }
}
