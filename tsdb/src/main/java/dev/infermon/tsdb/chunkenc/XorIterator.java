package dev.infermon.tsdb.chunkenc;

import dev.infermon.storage.SampleIterator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Decodes an XOR chunk from a slice of a byte array without copying it, so chunks in mapped block
 * files are read in place. Reusable through {@link #reset(byte[], int, int)}.
 *
 * <p>Not thread-safe. The array must not change while the iterator reads the samples it covers.
 * Malformed bytes raise {@link CorruptChunkException} from {@link #next()} or {@link #seek(long)}.
 */
public final class XorIterator implements SampleIterator {
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /**
   * Bytes the fast path may load from a sample's first byte on: a sample is at most 145 bits (a
   * 4-bit prefix and 64-bit delta of delta, a 13-bit value header and 64 bits), and its last 8-byte
   * load starts at most 113 bits in.
   */
  private static final int FAST_ROOM = 24;

  private final BitReader br = new BitReader();
  private byte[] buf;
  private long endBits; // bit index in buf where the chunk's stream ends
  private int start;
  private int total;
  private int read;
  private long t;
  private long vbits;
  private long tDelta;
  private int leading;
  private int trailing;

  private XorIterator() {}

  /**
   * An iterator over the chunk encoded in {@code buf[off, off+len)}.
   *
   * @throws IllegalArgumentException when the slice is outside the array
   * @throws CorruptChunkException when the slice is shorter than the 2-byte header
   */
  public static XorIterator over(byte[] buf, int off, int len) {
    XorIterator it = new XorIterator();
    it.reset(buf, off, len);
    return it;
  }

  /**
   * An iterator over the first {@code numSamples} samples of a chunk whose header may already count
   * more (a head chunk that is still being appended to). The header is not trusted here: a writer
   * may be updating it.
   */
  public static XorIterator over(byte[] buf, int off, int len, int numSamples) {
    if (numSamples < 0) {
      throw new IllegalArgumentException("negative sample count: " + numSamples);
    }
    XorIterator it = over(buf, off, len);
    it.total = numSamples;
    return it;
  }

  /** Starts over on another chunk. */
  public void reset(byte[] buf, int off, int len) {
    if (off < 0 || len < 0 || off + len > buf.length) {
      throw new IllegalArgumentException(
          "chunk slice [" + off + ", " + off + "+" + len + ") outside array of " + buf.length);
    }
    if (len < 2) {
      throw new CorruptChunkException("shorter than its header: " + len + " bytes");
    }
    total = ((buf[off] & 0xff) << 8) | (buf[off + 1] & 0xff);
    this.buf = buf;
    endBits = (long) (off + len) * 8;
    start = off + 2;
    br.reset(buf, start, off + len);
    read = 0;
    t = Long.MIN_VALUE;
    vbits = 0;
    tDelta = 0;
    leading = 0;
    trailing = 0;
  }

  /** Number of samples the iterator will yield in all. */
  public int numSamples() {
    return total;
  }

  @Override
  public boolean next() {
    if (read == total) {
      return false;
    }
    if (read == 0) {
      t = readVarint();
      vbits = br.readBits(64);
    } else if (read == 1) {
      tDelta = readUvarint();
      t += tDelta;
      readValue();
    } else {
      t += (tDelta += readDod());
      readValue();
    }
    read++;
    return true;
  }

  @Override
  public int nextBatch(long[] ts, double[] vs, int off, int len, long maxt) {
    int k = 0;
    while (k < len) {
      if (fastAhead()) {
        k = fastBatch(ts, vs, off, k, len, maxt);
        if (k < 0) {
          return ~k; // stopped on a sample after maxt
        }
        continue;
      }
      if (!next()) {
        return ~k;
      }
      if (t > maxt) {
        return k;
      }
      ts[off + k] = t;
      vs[off + k] = Double.longBitsToDouble(vbits);
      k++;
    }
    return k;
  }

  @Override
  public boolean seek(long target) {
    while (read == 0 || t < target) {
      if (fastAhead()) {
        fastSeek(target);
        continue;
      }
      if (!next()) {
        return false;
      }
    }
    return true;
  }

  // ---- The fast path ----
  //
  // Seeking into a chunk decodes every sample before the target (an instant query's window starts
  // near the end of a head chunk), so decoding speed is most of an instant query's storage time.
  // Away from the end of the array, samples after the first two are decoded by absolute bit
  // position with one unaligned 8-byte load per field, and the position and decoder state live in
  // locals for the whole run; the bit reader is synchronized at the start and the end of a run. It
  // decodes exactly what next() decodes (the conformance kit compares the two on every chunk). A
  // stream that ends inside a sample is caught after that sample, as next() would have caught it
  // while reading it: the fast path may load bytes past the chunk's end, never past the array's.

  /** Whether the next sample can be decoded on the fast path. */
  private boolean fastAhead() {
    return read >= 2 && read < total && (br.bitPosition() >>> 3) + FAST_ROOM <= buf.length;
  }

  /** Decodes samples until one at or after {@code target}, the chunk's end or the array's. */
  private void fastSeek(long target) {
    final byte[] b = buf;
    final long roomEnd = (long) (b.length - FAST_ROOM) * 8;
    long bp = br.bitPosition();
    long tt = t;
    long delta = tDelta;
    long bits = vbits;
    int lead = leading;
    int trail = trailing;
    int n = read;
    do {
      long w = peek(b, bp);
      int ones = Long.numberOfLeadingZeros(~w);
      if (ones == 0) {
        bp++;
      } else if (ones < 4) {
        int size = ones == 1 ? 14 : ones == 2 ? 17 : 20;
        long dod = (w << (ones + 1)) >>> (64 - size);
        if (dod > (1L << (size - 1))) {
          dod -= 1L << size;
        }
        delta += dod;
        bp += ones + 1 + size;
      } else {
        delta += read64(b, bp + 4);
        bp += 68;
      }
      tt += delta;
      w = peek(b, bp);
      if (w < 0) {
        if ((w << 1) < 0) {
          lead = (int) ((w << 2) >>> 59);
          int sig = (int) ((w << 7) >>> 58);
          if (sig == 0) {
            sig = 64;
          }
          trail = 64 - lead - sig;
          if (trail < 0) {
            throw new CorruptChunkException("leading " + lead + " + significant " + sig + " > 64");
          }
          bp += 13;
        } else {
          bp += 2;
        }
        int sig = 64 - lead - trail;
        bits ^= read(b, bp, sig) << trail;
        bp += sig;
      } else {
        bp++;
      }
      if (bp > endBits) {
        throw new CorruptChunkException("bit stream ends early");
      }
      n++;
    } while (tt < target && n < total && bp <= roomEnd);
    t = tt;
    tDelta = delta;
    vbits = bits;
    leading = lead;
    trailing = trail;
    read = n;
    br.moveTo(bp);
  }

  /**
   * Decodes samples into {@code ts}/{@code vs} from index {@code off + k} until {@code len} are
   * stored, the chunk ends or the array's end is near; returns the new count, or its complement
   * when it stopped on (and consumed) a sample after {@code maxt}.
   */
  private int fastBatch(long[] ts, double[] vs, int off, int k, int len, long maxt) {
    final byte[] b = buf;
    final long roomEnd = (long) (b.length - FAST_ROOM) * 8;
    long bp = br.bitPosition();
    long tt = t;
    long delta = tDelta;
    long bits = vbits;
    int lead = leading;
    int trail = trailing;
    int n = read;
    boolean past = false;
    do {
      long w = peek(b, bp);
      int ones = Long.numberOfLeadingZeros(~w);
      if (ones == 0) {
        bp++;
      } else if (ones < 4) {
        int size = ones == 1 ? 14 : ones == 2 ? 17 : 20;
        long dod = (w << (ones + 1)) >>> (64 - size);
        if (dod > (1L << (size - 1))) {
          dod -= 1L << size;
        }
        delta += dod;
        bp += ones + 1 + size;
      } else {
        delta += read64(b, bp + 4);
        bp += 68;
      }
      tt += delta;
      w = peek(b, bp);
      if (w < 0) {
        if ((w << 1) < 0) {
          lead = (int) ((w << 2) >>> 59);
          int sig = (int) ((w << 7) >>> 58);
          if (sig == 0) {
            sig = 64;
          }
          trail = 64 - lead - sig;
          if (trail < 0) {
            throw new CorruptChunkException("leading " + lead + " + significant " + sig + " > 64");
          }
          bp += 13;
        } else {
          bp += 2;
        }
        int sig = 64 - lead - trail;
        bits ^= read(b, bp, sig) << trail;
        bp += sig;
      } else {
        bp++;
      }
      if (bp > endBits) {
        throw new CorruptChunkException("bit stream ends early");
      }
      n++;
      if (tt > maxt) {
        past = true;
        break;
      }
      ts[off + k] = tt;
      vs[off + k] = Double.longBitsToDouble(bits);
      k++;
    } while (k < len && n < total && bp <= roomEnd);
    t = tt;
    tDelta = delta;
    vbits = bits;
    leading = lead;
    trailing = trail;
    read = n;
    br.moveTo(bp);
    return past ? ~k : k;
  }

  /** The 64 bits of the array from bit {@code bp} on, of which the first 57 are whole. */
  private static long peek(byte[] b, long bp) {
    return ((long) BIG_ENDIAN_LONG.get(b, (int) (bp >>> 3))) << (bp & 7);
  }

  /** {@code n} bits ({@code 1 <= n <= 64}) from bit {@code bp} on, as an unsigned value. */
  private static long read(byte[] b, long bp, int n) {
    if (n > 57) {
      return (read(b, bp, n - 32) << 32) | (peek(b, bp + n - 32) >>> 32);
    }
    return peek(b, bp) >>> (64 - n);
  }

  private static long read64(byte[] b, long bp) {
    return (peek(b, bp) >>> 32) << 32 | (peek(b, bp + 32) >>> 32);
  }

  @Override
  public long timestamp() {
    return t;
  }

  @Override
  public double value() {
    return Double.longBitsToDouble(vbits);
  }

  private long readDod() {
    int size;
    switch (br.readUnary(4)) {
      case 0:
        return 0;
      case 1:
        size = 14;
        break;
      case 2:
        size = 17;
        break;
      case 3:
        size = 20;
        break;
      default:
        return br.readBits(64);
    }
    long bits = br.readBits(size);
    // Negative deltas come back as large unsigned numbers (Prometheus docs/bstream.md).
    if (bits > (1L << (size - 1))) {
      bits -= 1L << size;
    }
    return bits;
  }

  private void readValue() {
    // 0: same value; 10: XOR within the previous leading/trailing zeros; 11: new ones follow.
    int control = br.readUnary(2);
    if (control == 0) {
      return;
    }
    if (control == 2) {
      leading = (int) br.readBits(5);
      int sig = (int) br.readBits(6);
      if (sig == 0) {
        sig = 64;
      }
      trailing = 64 - leading - sig;
      if (trailing < 0) {
        throw new CorruptChunkException("leading " + leading + " + significant " + sig + " > 64");
      }
    }
    int sig = 64 - leading - trailing;
    vbits ^= br.readBits(sig) << trailing;
  }

  private long readVarint() {
    long ux = readUvarint();
    return (ux >>> 1) ^ -(ux & 1);
  }

  private long readUvarint() {
    long x = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      int b = br.readByte();
      x |= (long) (b & 0x7f) << shift;
      if (b < 0x80) {
        return x;
      }
    }
    throw new CorruptChunkException("varint longer than 10 bytes");
  }

  // State a continuing writer needs (XorChunk.open).
  long timeDelta() {
    return tDelta;
  }

  int leading() {
    return leading;
  }

  int trailing() {
    return trailing;
  }

  long bitsRead() {
    return br.bitsRead(start);
  }
}
