package dev.infermon.scrape;

import java.time.Duration;

/**
 * Fetches one target's page: the seam between the loop and HTTP, as Prometheus's unexported {@code
 * scraper}, so tests can feed pages without a server.
 *
 * <p>Threading: called by one loop, never concurrently with itself; {@link #close()} may come from
 * the thread stopping the loop.
 */
interface Scraper {
  /** A fetched page: {@code body[0, length)} and the response's Content-Type (maybe null). */
  record Page(byte[] body, int length, String contentType) {}

  /**
   * Fetches the page within {@code timeout}.
   *
   * @throws ScrapeFailure with the message the target's {@code lastError} shows
   */
  Page fetch(Duration timeout) throws ScrapeFailure;

  /**
   * Releases what this fetcher holds on its own (a keep-alive connection), once its loop stopped:
   * the target went away or its pool stopped. A fetch still in flight may fail.
   */
  default void close() {}

  /** Why a fetch failed; the message is what operators see. */
  final class ScrapeFailure extends Exception {
    private static final long serialVersionUID = 1L;

    ScrapeFailure(String message) {
      super(message);
    }

    ScrapeFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
