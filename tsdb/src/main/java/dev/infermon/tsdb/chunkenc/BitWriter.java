package dev.infermon.tsdb.chunkenc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An append-only bit stream, most significant bit first, over a growable byte array. Bits past the
 * write position are always zero, which lets writes OR into the last byte.
 *
 * <p>Multi-bit writes OR the field into one big-endian 64-bit word at the current byte (plus one
 * byte when the field straddles it), so the array keeps {@value #SLACK} bytes of room past the
 * write position; bytes past {@link #byteLength()} are zero and not part of the stream.
 *
 * <p>Not thread-safe. The array may be replaced when it grows; bytes already written never change
 * afterwards except for the still-partial last byte, whose already-written bits stay as they are.
 *
 * <p>Not final: {@link XorChunk} extends it, so that a head chunk is one object rather than a chunk
 * pointing to its writer (one dependent memory load less per appended sample, 16 bytes less per
 * series).
 */
class BitWriter {
  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final int SLACK = 9; // one word, plus the byte a straddling field spills into

  private byte[] buf;
  private long bitLen;
  private int growTo; // the size of the next growth, when a caller knows better than 1.5x

  BitWriter(int initialBytes) {
    buf = new byte[initialBytes];
  }

  /** Continues a stream of {@code bitLen} bits held in {@code buf} (owned by the writer after). */
  BitWriter(byte[] buf, long bitLen) {
    this.buf = buf;
    this.bitLen = bitLen;
  }

  byte[] buffer() {
    return buf;
  }

  long bitLength() {
    return bitLen;
  }

  int byteLength() {
    return (int) ((bitLen + 7) >>> 3);
  }

  void writeBit(boolean bit) {
    int idx = (int) (bitLen >>> 3);
    ensure(idx + 1);
    if (bit) {
      buf[idx] |= (byte) (0x80 >>> (bitLen & 7));
    }
    bitLen++;
  }

  /** Writes the low {@code n} bits of {@code v}, {@code 0 <= n <= 64}. */
  void writeBits(long v, int n) {
    if (n == 0) {
      return;
    }
    int idx = (int) (bitLen >>> 3);
    ensure(idx + SLACK);
    int used = (int) (bitLen & 7);
    long field = n == 64 ? v : v & ((1L << n) - 1);
    int room = 64 - used; // bits of the word at idx still free
    long word = (long) LONG_BE.get(buf, idx);
    if (n <= room) {
      LONG_BE.set(buf, idx, word | (field << (room - n)));
    } else {
      int spill = n - room; // 1..7 bits go to the byte after the word
      LONG_BE.set(buf, idx, word | (field >>> spill));
      buf[idx + 8] = (byte) (field << (8 - spill));
    }
    bitLen += n;
  }

  /** Writes a byte at the current position (which need not be aligned). */
  void writeByte(int b) {
    writeBits(b & 0xff, 8);
  }

  void putUint16At(int byteOffset, int v) {
    buf[byteOffset] = (byte) (v >>> 8);
    buf[byteOffset + 1] = (byte) v;
  }

  /** Shrinks the array to the bytes in use; a completed chunk stops paying for growth headroom. */
  void trim() {
    int n = byteLength();
    if (buf.length != n) {
      buf = Arrays.copyOf(buf, n);
    }
  }

  /** Makes the next growth go straight to {@code bytes} (if that is more than needed then). */
  void growNextTo(int bytes) {
    growTo = bytes;
  }

  private void ensure(int bytes) {
    if (bytes > buf.length) {
      // Grow by half: a head chunk ends near 150 bytes, so small steps keep the slack small.
      int n = Math.max(bytes, growTo > buf.length ? growTo : buf.length + (buf.length >>> 1) + 8);
      growTo = 0;
      buf = Arrays.copyOf(buf, n);
    }
  }
}
