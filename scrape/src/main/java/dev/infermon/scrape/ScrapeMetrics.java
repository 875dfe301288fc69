package dev.infermon.scrape;

/**
 * infermon's own counters about scraping; the server binds them to its metrics registry. Calls come
 * from many scrape threads at once, so implementations are thread-safe and cheap (no I/O).
 */
public interface ScrapeMetrics {
  /** Why samples of a scrape were not stored. */
  enum Rejection {
    /** Older than the series' newest sample. */
    OUT_OF_ORDER,
    /** Same timestamp as the newest sample, another value. */
    DUPLICATE,
    /** Older than the storage's appendable window. */
    OUT_OF_BOUNDS,
    /** Later than the storage's future window (now plus a few minutes). */
    TOO_FAR_IN_FUTURE,
    /** Part of a scrape that failed as a whole (limit, parse error): rolled back. */
    SCRAPE_FAILED
  }

  /** Counts nothing. */
  ScrapeMetrics NOOP =
      new ScrapeMetrics() {
        @Override
        public void scrapeCompleted(String pool, boolean success, double seconds) {}

        @Override
        public void samplesAppended(String pool, long n) {}

        @Override
        public void samplesRejected(String pool, Rejection reason, long n) {}
      };

  /** One scrape of a target of {@code pool} ended. */
  void scrapeCompleted(String pool, boolean success, double seconds);

  /** {@code n} scraped samples were committed (report series not included). */
  void samplesAppended(String pool, long n);

  /** {@code n} samples were not stored, for {@code reason}. */
  void samplesRejected(String pool, Rejection reason, long n);
}
