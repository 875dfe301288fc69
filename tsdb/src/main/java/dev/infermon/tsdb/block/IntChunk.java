package dev.infermon.tsdb.block;

import dev.infermon.storage.SampleIterator;
import dev.infermon.tsdb.chunkenc.BitReader;
import dev.infermon.tsdb.chunkenc.CorruptChunkException;
import dev.infermon.tsdb.encoding.CorruptDataException;
import java.util.Arrays;

/**
 * The block chunk encoding for values that are decimal numbers with few digits after the point
 * (counters, histogram buckets, most gauges): every value times {@code 10^scale} is an integer
 * below 2^53 from which the value's exact bits come back by dividing. Such values are stored as
 * integer delta-of-deltas in a variable bit width, the way Gorilla stores timestamps, which takes
 * about half the bits of XOR for counters that grow by varying amounts. Chunks whose values do not
 * qualify (NaN, staleness markers, infinities, -0.0, arbitrary fractions) stay XOR. Specified in
 * {@code docs/format/chunks.md}.
 */
final class IntChunk {
  /** Largest decimal scale tried: values with up to 6 digits after the point. */
  static final int MAX_SCALE = 6;

  private static final double[] POW10 = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
  private static final double LIMIT = 0x1p53;

  private IntChunk() {}

  /**
   * Encodes {@code n} samples, or returns null when some value has no exact scaled-integer form.
   */
  static byte[] encode(long[] ts, double[] vs, int n) {
    if (n < 1 || n > 0xFFFF) {
      throw new IllegalArgumentException("sample count out of range: " + n);
    }
    int scale = scaleOf(vs, n);
    if (scale < 0) {
      return null;
    }
    double m = POW10[scale];
    BitWriter w = new BitWriter(16 + n * 2);
    w.bits(n, 16);
    w.bits(scale, 8);
    long v0 = (long) Math.rint(vs[0] * m);
    w.varint(ts[0]);
    w.varint(v0);
    long prevT = ts[0];
    long prevV = v0;
    long dT = 0;
    long dV = 0;
    for (int i = 1; i < n; i++) {
      long v = (long) Math.rint(vs[i] * m);
      long nt = ts[i] - prevT;
      long nv = v - prevV;
      if (i == 1) {
        w.uvarint(nt);
        w.varint(nv);
      } else {
        w.timeDod(nt - dT);
        w.valueDod(nv - dV);
      }
      dT = nt;
      dV = nv;
      prevT = ts[i];
      prevV = v;
    }
    return w.toByteArray();
  }

  /** The smallest decimal scale that represents every value exactly, or -1. */
  static int scaleOf(double[] vs, int n) {
    for (int s = 0; s <= MAX_SCALE; s++) {
      if (fits(vs, n, POW10[s])) {
        return s;
      }
    }
    return -1;
  }

  private static boolean fits(double[] vs, int n, double m) {
    for (int i = 0; i < n; i++) {
      double x = Math.rint(vs[i] * m);
      if (!(Math.abs(x) < LIMIT)
          || Double.doubleToRawLongBits(((long) x) / m) != Double.doubleToRawLongBits(vs[i])) {
        return false;
      }
    }
    return true;
  }

  /** Decodes a chunk in {@code buf[0, len)}. Not thread-safe; reusable through {@link #reset}. */
  static final class Iterator implements SampleIterator {
    private final BitReader r = new BitReader();
    private int total;
    private int read;
    private double m;
    private long t;
    private long v;
    private long dT;
    private long dV;

    void reset(byte[] buf, int len) {
      r.reset(buf, 0, len);
      int scale;
      try {
        total = (int) r.readBits(16);
        scale = (int) r.readBits(8);
      } catch (CorruptChunkException e) {
        throw corrupt(e);
      }
      if (scale > MAX_SCALE) {
        throw new CorruptDataException("int chunk: scale " + scale + " out of range");
      }
      m = POW10[scale];
      read = 0;
    }

    @Override
    public boolean next() {
      if (read == total) {
        return false;
      }
      try {
        if (read == 0) {
          t = varint();
          v = varint();
        } else if (read == 1) {
          dT = uvarint();
          dV = varint();
          t += dT;
          v += dV;
        } else {
          dT += timeDod();
          dV += valueDod();
          t += dT;
          v += dV;
        }
      } catch (CorruptChunkException e) {
        throw corrupt(e);
      }
      read++;
      return true;
    }

    private static CorruptDataException corrupt(CorruptChunkException e) {
      return new CorruptDataException("int chunk: " + e.getMessage());
    }

    private long uvarint() {
      long x = 0;
      for (int shift = 0; shift < 70; shift += 7) {
        long b = r.readBits(8);
        x |= (b & 0x7F) << shift;
        if (b < 0x80) {
          return x;
        }
      }
      throw new CorruptDataException("int chunk: varint longer than 10 bytes");
    }

    private long varint() {
      long u = uvarint();
      return (u >>> 1) ^ -(u & 1);
    }

    /** Gorilla's timestamp buckets: 0, then 14, 17, 20 or 64 bits after 10, 110, 1110, 1111. */
    private long timeDod() {
      switch (r.readUnary(4)) {
        case 0:
          return 0;
        case 1:
          return signed(r.readBits(14), 14);
        case 2:
          return signed(r.readBits(17), 17);
        case 3:
          return signed(r.readBits(20), 20);
        default:
          return r.readBits(64);
      }
    }

    /** Value buckets: 0, then a width from {@link #VALUE_WIDTHS} after up to 7 ones. */
    private long valueDod() {
      int ones = r.readUnary(VALUE_WIDTHS.length);
      if (ones == 0) {
        return 0;
      }
      int width = VALUE_WIDTHS[ones - 1];
      long raw = r.readBits(width);
      return width == 64 ? raw : signed(raw, width);
    }

    /** Undoes the two's complement truncation: values above 2^(n-1) were negative. */
    private static long signed(long bits, int n) {
      if (bits > (1L << (n - 1))) {
        bits -= 1L << n;
      }
      return bits;
    }

    @Override
    public int nextBatch(long[] ts, double[] vs, int off, int len, long maxt) {
      int k = 0;
      while (k < len) {
        if (!next()) {
          return ~k;
        }
        if (t > maxt) {
          return k;
        }
        ts[off + k] = t;
        vs[off + k] = v / m;
        k++;
      }
      return k;
    }

    @Override
    public boolean seek(long target) {
      while (read == 0 || t < target) {
        if (!next()) {
          return false;
        }
      }
      return true;
    }

    @Override
    public long timestamp() {
      return t;
    }

    @Override
    public double value() {
      return v / m;
    }
  }

  /** Most-significant-bit-first bit output. */
  static final class BitWriter {
    private byte[] buf;
    private long bitLen;

    BitWriter(int capacity) {
      buf = new byte[Math.max(8, capacity)];
    }

    void bits(long value, int n) {
      for (int i = n - 1; i >= 0; i--) {
        int byteIdx = (int) (bitLen >>> 3);
        if (byteIdx == buf.length) {
          buf = Arrays.copyOf(buf, buf.length * 2);
        }
        if (((value >>> i) & 1) != 0) {
          buf[byteIdx] |= (byte) (0x80 >>> (bitLen & 7));
        }
        bitLen++;
      }
    }

    void uvarint(long x) {
      while ((x & ~0x7FL) != 0) {
        bits((x & 0x7F) | 0x80, 8);
        x >>>= 7;
      }
      bits(x, 8);
    }

    void varint(long x) {
      uvarint((x << 1) ^ (x >> 63));
    }

    /** Gorilla's timestamp buckets, as in XOR chunks: 0, then 14, 17, 20 or 64 bits. */
    void timeDod(long d) {
      if (d == 0) {
        bits(0, 1);
      } else if (fits(d, 14)) {
        bits(0b10, 2);
        bits(d, 14);
      } else if (fits(d, 17)) {
        bits(0b110, 3);
        bits(d, 17);
      } else if (fits(d, 20)) {
        bits(0b1110, 4);
        bits(d, 20);
      } else {
        bits(0b1111, 4);
        bits(d, 64);
      }
    }

    /** Value buckets: 0, then 4, 7, 10, 14, 20, 32 or 64 bits after a unary prefix. */
    void valueDod(long d) {
      if (d == 0) {
        bits(0, 1);
        return;
      }
      for (int b = 0; b < VALUE_WIDTHS.length - 1; b++) {
        if (fits(d, VALUE_WIDTHS[b])) {
          bits((1L << (b + 2)) - 2, b + 2); // b+1 ones then a zero
          bits(d, VALUE_WIDTHS[b]);
          return;
        }
      }
      bits(0x7F, 7);
      bits(d, 64);
    }

    byte[] toByteArray() {
      return Arrays.copyOf(buf, (int) ((bitLen + 7) >>> 3));
    }
  }

  static final int[] VALUE_WIDTHS = {4, 7, 10, 14, 20, 32, 64};

  /** The range {@code [-(2^(n-1)-1), 2^(n-1)]}, as Prometheus's bitRange. */
  static boolean fits(long x, int n) {
    if (n >= 64) {
      return true;
    }
    long half = 1L << (n - 1);
    return -(half - 1) <= x && x <= half;
  }
}
