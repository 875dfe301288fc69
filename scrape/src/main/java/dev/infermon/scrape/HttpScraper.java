package dev.infermon.scrape;

import dev.infermon.model.text.GoFloat;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Fetches a page with the JDK {@link HttpClient} as Prometheus 2.42 does: {@code Accept} offering
 * OpenMetrics 1.0.0, then 0.0.1 (q=0.75), then text 0.0.4 (q=0.5), then anything (q=0.1); {@code
 * Accept-Encoding: gzip} unless compression is disabled; {@code
 * X-Prometheus-Scrape-Timeout-Seconds}; authorization from {@link
 * dev.infermon.config.http.RequestAuth}. The whole exchange, body included, must finish within the
 * timeout; the body is collected up to the size limit and, when gzipped, inflated up to the same
 * limit on the decompressed bytes, streaming, so neither form is ever held past the limit.
 */
final class HttpScraper implements Scraper {
  /** Prometheus 2.42's {@code scrapeAcceptHeader}. */
  static final String ACCEPT_HEADER =
      "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
          + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

  static final String USER_AGENT = "infermon";

  private final HttpClient client;
  private final URI uri;
  private final long bodyLimit;
  private final boolean compression;
  private final Supplier<java.util.Map<String, String>> headers;
  private int lastSize = 16 << 10;

  /**
   * @param bodyLimit the largest (decompressed) body accepted, in bytes
   * @param headers extra headers per request (authorization, configured headers), computed per
   *     scrape so that credential files are re-read
   */
  HttpScraper(
      HttpClient client,
      String url,
      long bodyLimit,
      boolean compression,
      Supplier<java.util.Map<String, String>> headers) {
    this.client = client;
    this.uri = URI.create(url);
    this.bodyLimit = Math.min(bodyLimit, Integer.MAX_VALUE - 16);
    this.compression = compression;
    this.headers = headers;
  }

  @Override
  public Page fetch(Duration timeout) throws ScrapeFailure {
    long deadline = System.nanoTime() + timeout.toNanos();
    HttpRequest.Builder rb =
        HttpRequest.newBuilder(uri)
            .GET()
            .timeout(timeout)
            .header("Accept", ACCEPT_HEADER)
            .header("User-Agent", USER_AGENT)
            .header("X-Prometheus-Scrape-Timeout-Seconds", seconds(timeout));
    if (compression) {
      rb.header("Accept-Encoding", "gzip");
    }
    for (java.util.Map.Entry<String, String> h : headers.get().entrySet()) {
      rb.setHeader(h.getKey(), h.getValue());
    }
    // A gzipped body can be a bit larger than its content only when incompressible; allow that.
    long rawCap = compression ? bodyLimit + (bodyLimit >> 6) + 1024 : bodyLimit;
    int initial = lastSize;
    CompletableFuture<HttpResponse<LimitedBody>> f =
        client.sendAsync(
            rb.build(), info -> new LimitedBody(Math.min(rawCap, Integer.MAX_VALUE - 16), initial));
    HttpResponse<LimitedBody> resp;
    try {
      resp = f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      throw new ScrapeFailure("scrape timed out after " + seconds(timeout) + "s");
    } catch (InterruptedException e) {
      f.cancel(true);
      Thread.currentThread().interrupt();
      throw new ScrapeFailure("scrape interrupted");
    } catch (ExecutionException e) {
      throw failure(e.getCause(), timeout);
    }
    if (resp.statusCode() != 200) {
      throw new ScrapeFailure("server returned HTTP status " + status(resp.statusCode()));
    }
    LimitedBody body = resp.body();
    Page page =
        Bodies.page(
            body.bytes(),
            body.length(),
            resp.headers().firstValue("Content-Type").orElse(null),
            resp.headers().firstValue("Content-Encoding").orElse(""),
            bodyLimit,
            false); // completed on the client's threads: no thread-reused arrays
    lastSize = Math.max(1024, body.length());
    return page;
  }

  private static ScrapeFailure failure(Throwable cause, Duration timeout) {
    if (cause instanceof LimitedBody.TooLarge) {
      return new ScrapeFailure("body size limit exceeded");
    }
    if (cause instanceof HttpTimeoutException) {
      return new ScrapeFailure("scrape timed out after " + seconds(timeout) + "s", cause);
    }
    String m = cause.getMessage();
    return new ScrapeFailure(cause.getClass().getSimpleName() + (m == null ? "" : ": " + m), cause);
  }

  /**
   * Prometheus's {@code strconv.FormatFloat(d.Seconds(), 'f', -1, 64)}: {@code 10}, {@code 0.5}.
   */
  static String seconds(Duration d) {
    return GoFloat.formatF(d.toNanos() / 1e9);
  }

  static String status(int code) {
    String reason = Statuses.reason(code);
    return reason.isEmpty() ? Integer.toString(code) : code + " " + reason;
  }
}
