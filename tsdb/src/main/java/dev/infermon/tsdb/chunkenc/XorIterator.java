package dev.infermon.tsdb.chunkenc;

import dev.infermon.storage.SampleIterator;

/**
 * Decodes an XOR chunk from a slice of a byte array without copying it, so chunks in mapped block
 * files are read in place. Reusable through {@link #reset(byte[], int, int)}.
 *
 * <p>Not thread-safe. The array must not change while the iterator reads the samples it covers.
 * Malformed bytes raise {@link CorruptChunkException} from {@link #next()} or {@link #seek(long)}.
 */
public final class XorIterator implements SampleIterator {
  private final BitReader br = new BitReader();
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
