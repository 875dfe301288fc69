package dev.infermon.tsdb.chunkenc;

import dev.infermon.storage.SampleIterator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Decodes an XOR chunk from a slice of a byte array without copying it, so chunks in mapped block
 * files are read in place. Reusable through {@link #reset(byte[], int, int)}.
 *
 * <p>Decoding is by absolute bit position: every field is cut out of one unaligned 8-byte load at
 * that position, and {@link #seek} and {@link #nextBatch} keep the position and the decoder's state
 * in locals for the whole run. Seeking into a chunk decodes every sample before the target (an
 * instant query's window starts near the end of a head chunk), so this loop is most of an instant
 * query's storage time.
 *
 * <p>Not thread-safe. The array must not change while the iterator reads the samples it covers;
 * bytes after the slice may (a head chunk being appended to): loads near the end of the stream may
 * take bytes past the slice, never past the array, and use none of their bits unless the stream is
 * cut short. Malformed bytes raise {@link CorruptChunkException} from {@link #next()}, {@link
 * #seek(long)} or {@link #nextBatch}: a stream that ends inside a sample is caught once that sample
 * is decoded.
 */
public final class XorIterator implements SampleIterator {
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private byte[] buf;
  private int start; // first byte after the header
  private long endBits; // bit index in buf where the stream ends
  private long bp; // bit index in buf of the next unread bit
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
    XorIterator it = over(buf, off, len);
    it.limit(numSamples);
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
    start = off + 2;
    endBits = (long) (off + len) * 8;
    bp = (long) start * 8;
    read = 0;
    t = Long.MIN_VALUE;
    vbits = 0;
    tDelta = 0;
    leading = 0;
    trailing = 0;
  }

  /**
   * Starts over on another chunk, reading its first {@code numSamples} samples whatever its header
   * says (as {@link #over(byte[], int, int, int)}).
   */
  public void reset(byte[] buf, int off, int len, int numSamples) {
    reset(buf, off, len);
    limit(numSamples);
  }

  private void limit(int numSamples) {
    if (numSamples < 0) {
      throw new IllegalArgumentException("negative sample count: " + numSamples);
    }
    total = numSamples;
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
    if (read < 2) {
      first();
    } else {
      run(Long.MIN_VALUE, null, null, 0, 0, 1, Long.MAX_VALUE);
    }
    return true;
  }

  @Override
  public int nextBatch(long[] ts, double[] vs, int off, int len, long maxt) {
    if (len <= 0) {
      return 0;
    }
    int k = 0;
    while (read < 2) {
      if (!next()) {
        return ~k;
      }
      if (t > maxt) {
        return k;
      }
      ts[off + k] = t;
      vs[off + k] = Double.longBitsToDouble(vbits);
      if (++k == len) {
        return k;
      }
    }
    if (read == total) {
      return ~k;
    }
    return run(Long.MIN_VALUE, ts, vs, off, k, len, maxt);
  }

  @Override
  public boolean seek(long target) {
    while (read < 2 && (read == 0 || t < target)) {
      if (!next()) {
        return false;
      }
    }
    if (t >= target) {
      return true;
    }
    if (read == total) {
      return false;
    }
    run(target, null, null, 0, 0, Integer.MAX_VALUE, Long.MAX_VALUE);
    return t >= target;
  }

  /** The first two samples: a varint time and a whole value, then a uvarint delta and a value. */
  private void first() {
    if (read == 0) {
      t = readVarint();
      vbits = read(buf, bp, 64);
      bp += 64;
    } else {
      tDelta = readUvarint();
      t += tDelta;
      vbits = readValue(vbits);
    }
    checkEnd();
    read++;
  }

  /**
   * Decodes samples from the third on, with the state in locals. Seeking ({@code ts == null}):
   * until a sample at or after {@code target}, at most {@code len - k} samples, or the chunk's end.
   * Reading a batch: stores samples into {@code ts}/{@code vs} from index {@code off + k} until
   * {@code len} are stored, the chunk ends or a sample is after {@code maxt}. Returns the new count
   * of stored samples, its complement ({@code ~k}) when the chunk ran out, or {@code k} with the
   * iterator on the sample after {@code maxt}, as {@link #nextBatch} does. Needs {@code read >= 2}
   * and a sample left.
   */
  private int run(long target, long[] ts, double[] vs, int off, int k, int len, long maxt) {
    final byte[] b = buf;
    final long end = endBits;
    long p = bp;
    long tt = t;
    long delta = tDelta;
    long bits = vbits;
    int lead = leading;
    int trail = trailing;
    int n = read;
    final int last = total;
    int result;
    while (true) {
      // Delta of delta: 0, 10 + 14 bits, 110 + 17, 1110 + 20, 1111 + 64 (bstream.md).
      long w = peek(b, p);
      int ones = Long.numberOfLeadingZeros(~w);
      if (ones == 0) {
        p++;
      } else if (ones < 4) {
        int size = ones == 1 ? 14 : ones == 2 ? 17 : 20;
        long dod = (w << (ones + 1)) >>> (64 - size);
        // Negative deltas come back as large unsigned numbers.
        if (dod > (1L << (size - 1))) {
          dod -= 1L << size;
        }
        delta += dod;
        p += ones + 1 + size;
      } else {
        delta += read(b, p + 4, 64);
        p += 68;
      }
      tt += delta;
      // Value: 0 same; 10 XOR within the previous leading/trailing zeros; 11 new ones follow.
      w = peek(b, p);
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
          p += 13;
        } else {
          p += 2;
        }
        int sig = 64 - lead - trail;
        bits ^= read(b, p, sig) << trail;
        p += sig;
      } else {
        p++;
      }
      if (p > end) {
        throw new CorruptChunkException("bit stream ends early");
      }
      n++;
      if (ts == null) {
        k++;
        if (tt >= target || k == len || n == last) {
          result = k;
          break;
        }
        continue;
      }
      if (tt > maxt) {
        result = k;
        break;
      }
      ts[off + k] = tt;
      vs[off + k] = Double.longBitsToDouble(bits);
      k++;
      if (k == len) {
        result = k;
        break;
      }
      if (n == last) {
        result = ~k;
        break;
      }
    }
    bp = p;
    t = tt;
    tDelta = delta;
    vbits = bits;
    leading = lead;
    trailing = trail;
    read = n;
    return result;
  }

  /** The 64 bits of the array from bit {@code p} on, of which the first 57 are whole. */
  private static long peek(byte[] b, long p) {
    int i = (int) (p >>> 3);
    long w = i <= b.length - 8 ? (long) BIG_ENDIAN_LONG.get(b, i) : tail(b, i);
    return w << (p & 7);
  }

  /** The bytes from {@code i} on as {@link #peek} takes them, zeros past the array's end. */
  private static long tail(byte[] b, int i) {
    long w = 0;
    for (int k = 0; k < 8; k++) {
      w = (w << 8) | (i + k < b.length ? b[i + k] & 0xffL : 0);
    }
    return w;
  }

  /** {@code n} bits ({@code 1 <= n <= 64}) from bit {@code p} on, as an unsigned value. */
  private static long read(byte[] b, long p, int n) {
    if (n > 57) {
      // Two loads: the first n - 32 bits, then 32.
      return (peek(b, p) >>> (96 - n)) << 32 | (peek(b, p + n - 32) >>> 32);
    }
    return peek(b, p) >>> (64 - n);
  }

  private long readValue(long prev) {
    long w = peek(buf, bp);
    if (w >= 0) {
      bp++;
      return prev;
    }
    if ((w << 1) < 0) {
      leading = (int) ((w << 2) >>> 59);
      int sig = (int) ((w << 7) >>> 58);
      if (sig == 0) {
        sig = 64;
      }
      trailing = 64 - leading - sig;
      if (trailing < 0) {
        throw new CorruptChunkException("leading " + leading + " + significant " + sig + " > 64");
      }
      bp += 13;
    } else {
      bp += 2;
    }
    int sig = 64 - leading - trailing;
    long v = prev ^ (read(buf, bp, sig) << trailing);
    bp += sig;
    return v;
  }

  private void checkEnd() {
    if (bp > endBits) {
      throw new CorruptChunkException("bit stream ends early");
    }
  }

  @Override
  public long timestamp() {
    return t;
  }

  @Override
  public double value() {
    return Double.longBitsToDouble(vbits);
  }

  private long readVarint() {
    long ux = readUvarint();
    return (ux >>> 1) ^ -(ux & 1);
  }

  private long readUvarint() {
    long x = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      int b = (int) (peek(buf, bp) >>> 56);
      bp += 8;
      if (bp > endBits) {
        throw new CorruptChunkException("bit stream ends early");
      }
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
    return bp - (long) start * 8;
  }
}
