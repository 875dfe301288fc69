package dev.infermon.scrape;

/**
 * Stamps a loop's scrapes on a grid of whole intervals when the scrape starts within {@link
 * #TOLERANCE_MS} of it, before or after, as Prometheus's scrape loop does ({@code
 * AlignScrapeTimestamps}, {@code ScrapeTimestampTolerance} in scrape/scrape.go). Timer and worker
 * jitter of a millisecond or two otherwise gives every sample a non-zero delta-of-delta: 16 bits of
 * timestamp per sample in a XOR chunk instead of 1, most of a head chunk for gauges and histogram
 * buckets that rarely change.
 *
 * <p>The grid starts at the first scrape and moves by whole intervals; a grid stamp is always later
 * than the stamp before it (a late tick followed at once by the next keeps its wall time), and a
 * wall clock more than the tolerance behind the grid starts a new grid. Loops of 200 ms or less are
 * never aligned, as in Prometheus.
 *
 * <p>Not thread-safe: one per loop, called by the loop's ticks, which never overlap (a tick is
 * skipped while the previous scrape runs), when the timer fires rather than when a worker starts
 * the scrape.
 */
final class ScrapeTimestamps {
  /** Prometheus's {@code ScrapeTimestampTolerance}. */
  static final long TOLERANCE_MS = 2;

  private static final long NONE = Long.MIN_VALUE;

  private final long intervalMs;
  private long grid = NONE; // the grid point nearest the latest scrape
  private long last = NONE; // the latest stamp given

  ScrapeTimestamps(long intervalMs) {
    if (intervalMs <= 0) {
      throw new IllegalArgumentException("interval must be positive: " + intervalMs + " ms");
    }
    this.intervalMs = intervalMs;
  }

  /** The timestamp for a scrape starting at wall time {@code nowMs}. */
  long stamp(long nowMs) {
    long t = nowMs;
    if (intervalMs > 100 * TOLERANCE_MS) {
      if (grid == NONE || nowMs < grid - TOLERANCE_MS) {
        grid = nowMs;
      } else {
        // The grid point nearest to now when now is within the tolerance of it; a scrape starts
        // early as well as late against the first one's wall time, whose own start was late.
        grid += (nowMs - grid + TOLERANCE_MS) / intervalMs * intervalMs;
      }
      if (Math.abs(nowMs - grid) <= TOLERANCE_MS && (last == NONE || grid > last)) {
        t = grid;
      }
    }
    last = t;
    return t;
  }
}
