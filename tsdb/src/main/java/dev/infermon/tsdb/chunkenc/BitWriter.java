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
 * <p>Not thread-safe. The array may be replaced when it grows, restarts or is released; an array
 * once replaced is never written again, and bytes already written never change afterwards except
 * for the still-partial last byte, whose already-written bits stay as they are.
 *
 * <p>Not final: {@link XorChunk} extends it, so that a head chunk is one object rather than a chunk
 * pointing to its writer (one dependent memory load less per appended sample, 16 bytes less per
 * series). For the same reason a writer can {@link #restart} in place with a new array, and the
 * head's series extends the chunk in turn.
 */
class BitWriter {
  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  static final int SLACK = 9; // one word, plus the byte a straddling field spills into

  /** The longest stream, in bytes, whose length in bits still fits an int. */
  static final int MAX_BYTES = Integer.MAX_VALUE >>> 3;

  /** The most a growth schedule may expect; a longer guess is cut to it (growth goes on 1.5x). */
  static final int MAX_EXPECTED = 0xffff;

  private byte[] buf; // null: no stream (the owner released it)
  private int bitLen; // an int: at most MAX_BYTES bytes, checked where the array grows
  // The stream's expected final length for growth in quarter steps ({@link #grownLength}); 0: grow
  // by 1.5x. A char rather than an int: an XorChunk subclass then packs into one word less.
  private char expected;

  /** No stream yet: {@link #restart} before writing. */
  BitWriter() {}

  BitWriter(int initialBytes) {
    buf = new byte[initialBytes];
  }

  /** Continues a stream of {@code bitLen} bits held in {@code buf} (owned by the writer after). */
  BitWriter(byte[] buf, int bitLen) {
    if (bitLen < 0 || (bitLen + 7) >>> 3 > buf.length) {
      throw new IllegalArgumentException(
          "bitLen " + bitLen + " does not fit an array of " + buf.length + " bytes");
    }
    this.buf = buf;
    this.bitLen = bitLen;
  }

  /**
   * Starts a new, empty stream in a new array, leaving the old array as it is to whoever still
   * reads it. With {@code expectedBytes > 0}, a guess of the stream's final length, the array
   * starts at a quarter of that and grows in quarters ({@link #grownLength}); with 0 it starts at
   * {@code fallbackBytes} and grows by 1.5x.
   */
  void restart(int expectedBytes, int fallbackBytes) {
    if (expectedBytes < 0) {
      throw new IllegalArgumentException("expectedBytes must not be negative: " + expectedBytes);
    }
    expected = (char) Math.min(expectedBytes, MAX_EXPECTED);
    buf = new byte[expected > 0 ? grownLength(0, expected) : fallbackBytes];
    bitLen = 0;
  }

  /** Drops the array: no stream until the next {@link #restart}. */
  void release() {
    buf = null;
    bitLen = 0;
    expected = 0;
  }

  byte[] buffer() {
    return buf;
  }

  int bitLength() {
    return bitLen;
  }

  int byteLength() {
    return (bitLen + 7) >>> 3;
  }

  void writeBit(boolean bit) {
    int idx = bitLen >>> 3;
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
    int idx = bitLen >>> 3;
    ensure(idx + SLACK);
    int used = bitLen & 7;
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

  /**
   * The array length after growing one from {@code length} bytes, for a stream expected to end near
   * {@code expected} bytes (0: not known).
   *
   * <p>Known: quarter steps, {@code k * expected / 4 + SLACK} for k = 1, 2, 3, then {@code expected
   * + expected / 8 + SLACK}, whose eighth covers a stream a little longer than the last one without
   * a further copy, then 1.5x. Each step holds a quarter more of the stream, so over a stream's
   * life the array is on average about 0.66 of the expected length instead of 0.81 when starting at
   * half and growing once to the whole; the price is garbage: the three outgrown arrays add up to
   * about 1.5x the expected length per stream instead of 0.5x.
   *
   * <p>Unknown: 1.5x (plus 8 so that tiny arrays do not crawl): a head chunk ends near 150 bytes,
   * so small steps keep the slack small.
   */
  static int grownLength(int length, int expected) {
    if (expected > 0) {
      int quarter = Math.max(1, expected / 4);
      for (int k = 1; k <= 3; k++) {
        if (k * quarter + SLACK > length) {
          return k * quarter + SLACK;
        }
      }
      int last = expected + expected / 8 + SLACK;
      if (last > length) {
        return last;
      }
    }
    return length + (length >>> 1) + 8;
  }

  private void ensure(int bytes) {
    if (bytes > buf.length) {
      if (bytes > MAX_BYTES) {
        throw new IllegalStateException("a bit stream holds at most " + MAX_BYTES + " bytes");
      }
      int n = Math.min(MAX_BYTES, Math.max(bytes, grownLength(buf.length, expected)));
      buf = Arrays.copyOf(buf, n);
    }
  }
}
