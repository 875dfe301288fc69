package dev.infermon.scrape;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.util.Timeout;

/**
 * Fetches a plain-HTTP page on the calling scrape worker with Apache HttpClient's classic
 * (blocking) API over a pooled keep-alive connection: the same request as {@link HttpScraper}
 * (Prometheus 2.42's headers), a fraction of its CPU. The JDK client hands every response through
 * its selector thread and a chain of futures, which cost ~0.5 ms of CPU per 60 KB page here, more
 * than parsing and storing the page (docs/rationale.md, "Scrapes over a blocking client").
 *
 * <p>The whole exchange, body included, must finish within the timeout: a task on the scrape
 * scheduler aborts the request at the deadline, so a slow trickle cannot outlive it. The body is
 * read up to the size limit (the connection is dropped past it), then inflated as {@link Bodies}
 * does.
 *
 * <p>Threading: called by one loop, never concurrently with itself; the client is the pool's.
 */
final class BlockingHttpScraper implements Scraper {
  private final CloseableHttpClient client;
  private final ScheduledExecutorService scheduler;
  private final String url;
  private final long bodyLimit;
  private final boolean compression;
  private final Supplier<Map<String, String>> headers;
  private int lastSize = 16 << 10;
  // Parsed and built once rather than for every scrape (both showed in the profile).
  private URI uri;
  private Duration configTimeout;
  private RequestConfig config;

  BlockingHttpScraper(
      CloseableHttpClient client,
      ScheduledExecutorService scheduler,
      String url,
      long bodyLimit,
      boolean compression,
      Supplier<Map<String, String>> headers) {
    this.client = client;
    this.scheduler = scheduler;
    this.url = url;
    this.bodyLimit = Math.min(bodyLimit, Integer.MAX_VALUE - 16);
    this.compression = compression;
    this.headers = headers;
  }

  @Override
  public Page fetch(Duration timeout) throws ScrapeFailure {
    if (uri == null) {
      uri = URI.create(url); // throws as new HttpGet(url) would
    }
    if (!timeout.equals(configTimeout)) {
      config =
          RequestConfig.custom()
              .setConnectionRequestTimeout(Timeout.of(timeout))
              .setResponseTimeout(Timeout.of(timeout))
              .build();
      configTimeout = timeout;
    }
    HttpGet req = new HttpGet(uri);
    req.setConfig(config);
    req.setHeader("Accept", HttpScraper.ACCEPT_HEADER);
    req.setHeader("User-Agent", HttpScraper.USER_AGENT);
    req.setHeader("X-Prometheus-Scrape-Timeout-Seconds", HttpScraper.seconds(timeout));
    if (compression) {
      req.setHeader("Accept-Encoding", "gzip");
    }
    for (Map.Entry<String, String> h : headers.get().entrySet()) {
      req.setHeader(h.getKey(), h.getValue());
    }
    ScheduledFuture<?> deadline =
        scheduler.schedule(() -> req.cancel(), timeout.toNanos(), TimeUnit.NANOSECONDS);
    try (ClassicHttpResponse resp = client.executeOpen(null, req, null)) {
      int status = resp.getCode();
      if (status != 200) {
        throw new ScrapeFailure("server returned HTTP status " + HttpScraper.status(status));
      }
      // A gzipped body can be a bit larger than its content only when incompressible; allow that.
      long rawCap = compression ? bodyLimit + (bodyLimit >> 6) + 1024 : bodyLimit;
      HttpEntity entity = resp.getEntity();
      byte[] raw = PageBuffers.raw(Math.max(1024, lastSize)); // this thread's, reused
      int n = 0;
      if (entity != null) {
        long declared = entity.getContentLength();
        if (declared > rawCap) {
          throw new ScrapeFailure("body size limit exceeded");
        }
        if (declared > raw.length) {
          raw = PageBuffers.raw((int) declared);
        }
        try (InputStream in = entity.getContent()) {
          while (true) {
            // The thread's array may be larger than this target's limit: read no further.
            int room = (int) Math.min(raw.length, rawCap);
            if (n == room) {
              if (n >= rawCap) {
                if (in.read() < 0) {
                  break;
                }
                throw new ScrapeFailure("body size limit exceeded");
              }
              raw = Arrays.copyOf(raw, (int) Math.min(rawCap, raw.length * 2L));
              PageBuffers.keepRaw(raw);
              room = (int) Math.min(raw.length, rawCap);
            }
            int r = in.read(raw, n, room - n);
            if (r < 0) {
              break;
            }
            n += r;
          }
        }
      }
      lastSize = Math.max(1024, n);
      return Bodies.page(
          raw, n, header(resp, "Content-Type"), contentEncoding(resp), bodyLimit, true);
    } catch (IOException e) {
      if (req.isCancelled() || e instanceof SocketTimeoutException) {
        throw new ScrapeFailure("scrape timed out after " + HttpScraper.seconds(timeout) + "s", e);
      }
      String m = e.getMessage();
      throw new ScrapeFailure(e.getClass().getSimpleName() + (m == null ? "" : ": " + m), e);
    } finally {
      deadline.cancel(false);
    }
  }

  private static String header(ClassicHttpResponse resp, String name) {
    Header h = resp.getFirstHeader(name);
    return h == null ? null : h.getValue();
  }

  private static String contentEncoding(ClassicHttpResponse resp) {
    String e = header(resp, "Content-Encoding");
    return e == null ? "" : e;
  }
}
