package dev.infermon.scrape;

/**
 * Per-thread arrays for the pages a blocking scrape inflates, reused scrape after scrape: a 60 KB
 * page and its compressed body were most of what a scrape allocated (~100 KB each time, a young
 * collection every few seconds at 135 targets; the received body has its own thread's array in
 * {@link dev.infermon.scrape.http1.Http1Client}). A worker fetches, inflates and appends a page on
 * its own thread and lets the page go before its next scrape (the scrape cache keeps no reference
 * into it), so reusing the thread's array is safe. Arrays above {@link #MAX_KEPT} bytes are not
 * kept, so one huge page does not pin its size on every worker.
 *
 * <p>Only for fetchers whose page is consumed on the thread that fetched it (not the JDK client's
 * asynchronous path).
 */
final class PageBuffers {
  static final int MAX_KEPT = 4 << 20;

  private static final ThreadLocal<byte[]> INFLATED = new ThreadLocal<>();

  private PageBuffers() {}

  /** This thread's array for inflated pages, at least {@code n} bytes (contents undefined). */
  static byte[] inflated(int n) {
    byte[] b = INFLATED.get();
    if (b != null && b.length >= n) {
      return b;
    }
    b = new byte[n];
    keepInflated(b);
    return b;
  }

  /** Remembers {@code b} (a grown copy) as this thread's inflated-page array. */
  static void keepInflated(byte[] b) {
    if (b.length <= MAX_KEPT) {
      INFLATED.set(b);
    }
  }
}
