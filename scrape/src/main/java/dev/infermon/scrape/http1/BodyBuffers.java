package dev.infermon.scrape.http1;

/**
 * This thread's array for received bodies, reused fetch after fetch: a 60 KB page was most of what
 * a scrape allocated (a young collection every few seconds at 135 targets). A scrape worker fetches
 * and consumes a page on its own thread before its next fetch, so reusing the thread's array is
 * safe ({@link Http1Client.Response}'s buffer ownership). Arrays above {@link #MAX_KEPT} bytes are
 * not kept, so one huge page does not pin its size on every worker.
 */
final class BodyBuffers {
  static final int MAX_KEPT = 4 << 20;

  private static final ThreadLocal<byte[]> RAW = new ThreadLocal<>();

  private BodyBuffers() {}

  /** This thread's array, at least {@code n} bytes (contents undefined). */
  static byte[] take(int n) {
    byte[] b = RAW.get();
    if (b != null && b.length >= n) {
      return b;
    }
    b = new byte[n];
    keep(b);
    return b;
  }

  /** Remembers {@code b} (a grown copy) as this thread's array. */
  static void keep(byte[] b) {
    if (b.length <= MAX_KEPT) {
      RAW.set(b);
    }
  }
}
