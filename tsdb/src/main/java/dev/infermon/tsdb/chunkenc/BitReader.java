package dev.infermon.tsdb.chunkenc;

/**
 * Reads a most-significant-bit-first bit stream (what {@link BitWriter} writes, and the block
 * chunks' integer encoding) from a slice of a byte array. Keeps up to 64 bits in a left-aligned
 * window so most reads are a shift and a mask.
 *
 * <p>Not thread-safe. Never modifies the array (it may be a read-only view of a mapped file). A
 * stream that ends before a read completes raises {@link CorruptChunkException}.
 */
public final class BitReader {
  private byte[] buf;
  private int pos;
  private int end;
  private long window; // unread bits, left-aligned
  private int valid; // number of unread bits in window

  /** Reads {@code buf[off, end)} from its start. */
  public void reset(byte[] buf, int off, int end) {
    this.buf = buf;
    this.pos = off;
    this.end = end;
    this.window = 0;
    this.valid = 0;
  }

  /** Reads one bit. */
  public boolean readBit() {
    if (valid == 0) {
      refill();
      if (valid == 0) {
        throw new CorruptChunkException("bit stream ends early");
      }
    }
    boolean bit = window < 0;
    window <<= 1;
    valid--;
    return bit;
  }

  /** Reads {@code n} bits, {@code 1 <= n <= 64}, as an unsigned value. */
  public long readBits(int n) {
    if (n > 56) {
      long hi = readBits(n - 32);
      return (hi << 32) | readBits(32);
    }
    if (valid < n) {
      refill();
      if (valid < n) {
        throw new CorruptChunkException("bit stream ends early");
      }
    }
    long r = window >>> (64 - n);
    window <<= n;
    valid -= n;
    return r;
  }

  /**
   * A unary prefix: reads up to {@code max} ({@code <= 8}) one bits and the zero that ends them
   * when there are fewer, as that many {@link #readBit()} calls would, and returns the number of
   * ones. The window's bits past {@code valid} are zeros, so the count never runs past the stream.
   */
  public int readUnary(int max) {
    if (valid <= max) {
      refill();
    }
    int ones = Long.numberOfLeadingZeros(~window);
    int used;
    if (ones >= max) {
      ones = max;
      used = max;
    } else {
      used = ones + 1;
    }
    if (used > valid) {
      throw new CorruptChunkException("bit stream ends early");
    }
    window <<= used;
    valid -= used;
    return ones;
  }

  /** Bits consumed since byte offset {@code off}. */
  long bitsRead(int off) {
    return (long) (pos - off) * 8 - valid;
  }

  int readByte() {
    return (int) readBits(8);
  }

  private void refill() {
    while (valid <= 56 && pos < end) {
      window |= (buf[pos++] & 0xffL) << (56 - valid);
      valid += 8;
    }
  }
}
