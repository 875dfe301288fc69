package dev.infermon.scrape;

import dev.infermon.scrape.http1.Http1Client;
import dev.infermon.scrape.http1.Http1Exception;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The fetcher of a plain-HTTP target: infermon's own HTTP/1.1 client ({@link Http1Client}, one
 * keep-alive connection per target, on the calling scrape worker) for the exchange, then the stages
 * every fetcher shares: the status check, decompression up to the body size limit ({@link Bodies},
 * into this thread's {@link PageBuffers}), and Prometheus's error messages, as {@link HttpScraper}
 * reports them. A redirect to {@code https://} is handed to the JDK client with the time left.
 *
 * <p>Threading: {@link #fetch} is called by one loop, never concurrently with itself; {@link
 * #close()} may be called from another thread when the target goes away, and closes the socket.
 */
final class Http1Scraper implements Scraper {
  private final Http1Client client;
  private final long bodyLimit;
  private final Function<String, Scraper> https;

  /**
   * @param bodyLimit the largest (decompressed) body accepted, in bytes
   * @param headers extra headers per request (authorization, configured headers)
   * @param https the fetcher of an {@code https://} URL a redirect leads to; null to refuse those
   */
  Http1Scraper(
      String url,
      long bodyLimit,
      boolean compression,
      boolean followRedirects,
      Supplier<Map<String, String>> headers,
      Function<String, Scraper> https) {
    this.bodyLimit = Math.min(bodyLimit, Integer.MAX_VALUE - 16);
    // A gzipped body can be a bit larger than its content only when incompressible; allow that.
    long cap = compression ? this.bodyLimit + (this.bodyLimit >> 6) + 1024 : this.bodyLimit;
    this.client =
        Http1Client.create(
            url,
            HttpScraper.USER_AGENT,
            HttpScraper.ACCEPT_HEADER,
            compression,
            followRedirects,
            (int) Math.min(cap, Integer.MAX_VALUE - 16),
            headers);
    this.https = https;
  }

  @Override
  public Page fetch(Duration timeout) throws ScrapeFailure {
    long deadline = System.nanoTime() + timeout.toNanos();
    Http1Client.Response r;
    try {
      r = client.fetch(timeout);
    } catch (SocketTimeoutException e) {
      throw timedOut(timeout, e);
    } catch (Http1Exception e) {
      throw new ScrapeFailure(e.getMessage(), e.getCause());
    }
    if (r.httpsLocation() != null) {
      return viaHttps(r.httpsLocation(), deadline, timeout);
    }
    if (r.status() != 200) {
      throw new ScrapeFailure("server returned HTTP status " + HttpScraper.status(r.status()));
    }
    return Bodies.page(r.body(), r.length(), r.contentType(), r.contentEncoding(), bodyLimit, true);
  }

  private Page viaHttps(String next, long deadline, Duration timeout) throws ScrapeFailure {
    if (https == null) {
      throw new ScrapeFailure("redirect to https is not supported for plain-HTTP targets: " + next);
    }
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw timedOut(timeout, null);
    }
    try {
      return https.apply(next).fetch(Duration.ofNanos(left));
    } catch (ScrapeFailure f) {
      if (String.valueOf(f.getMessage()).startsWith("scrape timed out")) {
        throw timedOut(timeout, f); // the scrape's timeout, not what was left of it
      }
      throw f;
    }
  }

  private static ScrapeFailure timedOut(Duration timeout, Throwable cause) {
    return new ScrapeFailure("scrape timed out after " + HttpScraper.seconds(timeout) + "s", cause);
  }

  /** Closes the keep-alive connection (the target went away); a later fetch would open one. */
  @Override
  public void close() {
    client.close();
  }
}
