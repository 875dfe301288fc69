package dev.infermon.scrape;

import java.util.Arrays;

/**
 * A series as written on the page (its bytes), used as the scrape cache's key. Stored keys own a
 * copy of the bytes; a single mutable probe per cache points into the parser's buffer for lookups,
 * so a cache hit allocates nothing. Not thread-safe.
 */
final class SeriesKey {
  private byte[] bytes;
  private int offset;
  private int length;
  private int hash;

  SeriesKey() {}

  /** Points this probe at {@code b[off, off + len)}. */
  SeriesKey point(byte[] b, int off, int len, long hash64) {
    this.bytes = b;
    this.offset = off;
    this.length = len;
    this.hash = (int) (hash64 ^ (hash64 >>> 32));
    return this;
  }

  /** A stored key owning a copy of this probe's bytes. */
  SeriesKey copy() {
    SeriesKey k = new SeriesKey();
    k.bytes = Arrays.copyOfRange(bytes, offset, offset + length);
    k.offset = 0;
    k.length = length;
    k.hash = hash;
    return k;
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SeriesKey)) {
      return false;
    }
    SeriesKey k = (SeriesKey) o;
    return k.hash == hash
        && Arrays.equals(bytes, offset, offset + length, k.bytes, k.offset, k.offset + k.length);
  }
}
