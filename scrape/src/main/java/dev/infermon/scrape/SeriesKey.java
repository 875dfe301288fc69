package dev.infermon.scrape;

/**
 * A series as written on the page: a view of the parser's buffer and the parser's 64-bit hash of
 * those bytes, used to look the series up in the {@link ScrapeCache}. One mutable probe per cache,
 * re-pointed for every sample, so a lookup allocates nothing; the cache keeps no bytes, only hashes
 * of them. The view is valid until the parser moves on. Not thread-safe.
 */
final class SeriesKey {
  byte[] bytes;
  int offset;
  int length;
  long hash64;

  SeriesKey() {}

  /** Points this probe at {@code b[off, off + len)}, whose hash is {@code hash64}. */
  SeriesKey point(byte[] b, int off, int len, long hash64) {
    this.bytes = b;
    this.offset = off;
    this.length = len;
    this.hash64 = hash64;
    return this;
  }
}
