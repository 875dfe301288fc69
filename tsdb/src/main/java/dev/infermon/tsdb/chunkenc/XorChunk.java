package dev.infermon.tsdb.chunkenc;

import java.util.Arrays;

/**
 * A Gorilla XOR chunk being written: samples go in with {@link #append(long, double)} in strictly
 * increasing time order; the encoded bytes come out with {@link #bytes()} or {@link #copyTo}. The
 * layout is Prometheus's ({@code tsdb/chunkenc/xor.go}), so a chunk written by one can be read by
 * the other. Value bits are kept exactly (every NaN payload, including the staleness marker).
 *
 * <p>Threading: one writer at a time; no internal synchronisation. A reader that learned the sample
 * count and byte array under the writer's lock ({@link #snapshotBuffer()}, {@link #numSamples()})
 * may decode them with {@link XorIterator} while the writer goes on appending: appends only set
 * bits past the ones already written, and a grown array is a new array.
 *
 * <p>Not final: a subclass may keep a chunk being written inside its own object (the head's series
 * does, one object per series instead of two) and start it over with {@link #restart}, which takes
 * a new array, so a reader of the old one is undisturbed.
 */
public class XorChunk extends BitWriter {
  /** Prometheus's target size; the head cuts a new chunk around it. */
  public static final int TARGET_SAMPLES = 120;

  /** The header's count is 16 bits. */
  public static final int MAX_SAMPLES = 0xffff;

  private static final int HEADER_BYTES = 2;
  private static final int DEFAULT_BYTES = 32;
  private static final byte NO_LEADING = -1;

  // Narrow types where the range allows, to pack a subclass's fields into fewer words: the count
  // is at most MAX_SAMPLES (a char is unsigned 16 bits), leading is 0..31 or NO_LEADING and
  // trailing 0..64.
  private char count;
  private long minTime = Long.MIN_VALUE;
  private long maxTime = Long.MIN_VALUE;
  private long lastValueBits;
  private long tDelta;
  private byte leading = NO_LEADING;
  private byte trailing;

  /**
   * No chunk yet, not even an array: {@link #numSamples()} is 0 and nothing else may be called
   * until {@link #restart} starts one.
   */
  protected XorChunk() {}

  private XorChunk(int initialBytes) {
    super(initialBytes);
  }

  private XorChunk(byte[] buf, int bitLen) {
    super(buf, bitLen);
  }

  /** An empty chunk. */
  public static XorChunk create() {
    XorChunk c = new XorChunk(DEFAULT_BYTES);
    c.writeBits(0, HEADER_BYTES * 8);
    return c;
  }

  /**
   * Starts this object over as an empty chunk in a new array; the old array is left untouched for
   * readers that took it (a snapshot), and every piece of encoder state is reset, so the bytes come
   * out as a {@link #create()}d chunk's would.
   *
   * @param expectedBytes a guess of the chunk's final length, such as the previous chunk's: the
   *     array then starts at a quarter of it and grows a quarter at a time (see {@code
   *     BitWriter.grownLength} for the trade); 0 when there is nothing to go by, which starts as
   *     {@link #create()}
   * @throws IllegalArgumentException when {@code expectedBytes} is negative
   */
  protected final void restart(int expectedBytes) {
    restart(expectedBytes, DEFAULT_BYTES);
    resetEncoder();
    writeBits(0, HEADER_BYTES * 8);
  }

  /** Drops the chunk and its array, as {@link #XorChunk()} (nothing is left to read). */
  protected final void clear() {
    release();
    resetEncoder();
  }

  private void resetEncoder() {
    count = 0;
    minTime = Long.MIN_VALUE;
    maxTime = Long.MIN_VALUE;
    lastValueBits = 0;
    tDelta = 0;
    leading = NO_LEADING;
    trailing = 0;
  }

  /**
   * A chunk that continues the encoded chunk in {@code buf[off, off+len)} (copied), so more samples
   * can be appended to it.
   *
   * @throws CorruptChunkException when the bytes do not decode
   */
  public static XorChunk open(byte[] buf, int off, int len) {
    XorIterator it = XorIterator.over(buf, off, len);
    int n = 0;
    long first = Long.MIN_VALUE;
    while (it.next()) {
      if (n++ == 0) {
        first = it.timestamp();
      }
    }
    int bitLen = Math.toIntExact(HEADER_BYTES * 8L + it.bitsRead());
    byte[] copy = Arrays.copyOfRange(buf, off, off + ((bitLen + 7) >>> 3));
    if ((bitLen & 7) != 0) {
      // Bits past the stream must be zero because appends OR into the last byte.
      copy[copy.length - 1] &= (byte) (0xff << (8 - (bitLen & 7)));
    }
    XorChunk c = new XorChunk(copy, bitLen);
    c.count = (char) n;
    if (n > 0) {
      c.minTime = first;
      c.maxTime = it.timestamp();
      c.lastValueBits = Double.doubleToRawLongBits(it.value());
      c.tDelta = it.timeDelta();
      // As Prometheus: the decoder's window becomes the encoder's, so both stay in step.
      c.leading = (byte) it.leading();
      c.trailing = (byte) it.trailing();
    }
    return c;
  }

  /**
   * Appends a sample.
   *
   * @throws IllegalArgumentException when {@code t} is not after the last sample's time, or the
   *     chunk already holds {@link #MAX_SAMPLES}
   */
  public final void append(long t, double v) {
    long vbits = Double.doubleToRawLongBits(v);
    if (count == 0) {
      putVarint(t);
      writeBits(vbits, 64);
      minTime = t;
    } else {
      if (t <= maxTime) {
        throw new IllegalArgumentException(
            "chunk samples must have increasing times: " + t + " after " + maxTime);
      }
      if (count == MAX_SAMPLES) {
        throw new IllegalArgumentException("chunk is full: " + (int) count + " samples");
      }
      long delta = t - maxTime;
      if (count == 1) {
        putUvarint(delta);
      } else {
        writeDod(delta - tDelta);
      }
      writeValue(vbits);
      tDelta = delta;
    }
    maxTime = t;
    lastValueBits = vbits;
    count++;
    putUint16At(0, count);
  }

  private void writeDod(long dod) {
    if (dod == 0) {
      writeBit(false);
    } else if (fits(dod, 14)) {
      writeBits(0b10, 2);
      writeBits(dod, 14);
    } else if (fits(dod, 17)) {
      writeBits(0b110, 3);
      writeBits(dod, 17);
    } else if (fits(dod, 20)) {
      writeBits(0b1110, 4);
      writeBits(dod, 20);
    } else {
      writeBits(0b1111, 4);
      writeBits(dod, 64);
    }
  }

  /** Prometheus's bitRange: the asymmetric range {@code [-(2^(n-1)-1), 2^(n-1)]}. */
  static boolean fits(long x, int nbits) {
    long half = 1L << (nbits - 1);
    return -(half - 1) <= x && x <= half;
  }

  private void writeValue(long vbits) {
    long xor = vbits ^ lastValueBits;
    if (xor == 0) {
      writeBit(false);
      return;
    }
    writeBit(true);
    int lead = Math.min(Long.numberOfLeadingZeros(xor), 31);
    int trail = Long.numberOfTrailingZeros(xor);
    if (leading != NO_LEADING && lead >= leading && trail >= trailing) {
      writeBit(false);
      writeBits(xor >>> trailing, 64 - leading - trailing);
    } else {
      leading = (byte) lead;
      trailing = (byte) trail;
      writeBit(true);
      writeBits(lead, 5);
      int sig = 64 - lead - trail;
      writeBits(sig, 6); // 64 does not fit in 6 bits and is written as 0; readers map it back
      writeBits(xor >>> trail, sig);
    }
  }

  private void putVarint(long x) {
    putUvarint((x << 1) ^ (x >> 63));
  }

  private void putUvarint(long x) {
    while (Long.compareUnsigned(x, 0x80) >= 0) {
      writeByte((int) (x & 0x7f) | 0x80);
      x >>>= 7;
    }
    writeByte((int) x);
  }

  public final int numSamples() {
    return count;
  }

  /** Time of the first sample; {@link Long#MIN_VALUE} when empty. */
  public final long minTime() {
    return minTime;
  }

  /** Time of the last sample; {@link Long#MIN_VALUE} when empty. */
  public final long maxTime() {
    return maxTime;
  }

  /** Value of the last sample, bit for bit. */
  public final double lastValue() {
    return Double.longBitsToDouble(lastValueBits);
  }

  /** Length of the encoded chunk in bytes. */
  public final int length() {
    return byteLength();
  }

  /** A copy of the encoded chunk. */
  public final byte[] bytes() {
    return Arrays.copyOf(buffer(), byteLength());
  }

  /** Copies the encoded chunk into {@code dst} at {@code off}; returns the number of bytes. */
  public final int copyTo(byte[] dst, int off) {
    int n = byteLength();
    System.arraycopy(buffer(), 0, dst, off, n);
    return n;
  }

  /**
   * The live array (not a copy), valid for {@link #length()} bytes and {@link #numSamples()}
   * samples as read together under the writer's lock. The caller must not modify it.
   */
  public final byte[] snapshotBuffer() {
    return buffer();
  }

  /** Drops growth headroom once no more samples will be appended. */
  public final void trim() {
    super.trim();
  }

  /** An iterator over the samples appended so far (same threading rule as the class). */
  public final XorIterator iterator() {
    return XorIterator.over(buffer(), 0, byteLength(), count);
  }
}
