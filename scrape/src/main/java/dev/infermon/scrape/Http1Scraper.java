package dev.infermon.scrape;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Fetches a plain-HTTP target's page over one keep-alive connection of its own, on the calling
 * scrape worker: the narrow exchange a scrape is (one GET, one response, never two at once) over
 * {@link java.net.Socket}, without a general client's layers (docs/rationale.md, "A purpose-built
 * HTTP/1.1 client for plain-HTTP scrapes"). The request is Prometheus 2.42's, as {@link
 * HttpScraper} sends it; the errors read the same.
 *
 * <ul>
 *   <li>The request line and fixed headers are encoded once; each fetch adds the timeout header and
 *       the auth headers (read per fetch: credential files may change) and goes out in one write.
 *   <li>One deadline for the whole exchange, body included, enforced by the socket timeout armed
 *       with the time left before each blocking read ({@link Http1Connection}); no timer task.
 *   <li>A request that fails before any response byte on a reused connection is sent once more on a
 *       fresh one (the target closed the idle connection: uvicorn, which serves vLLM, does after 5
 *       s), as Go's client does; never after a status, a timeout, a refused connection or a partial
 *       response.
 *   <li>Redirects (301, 302, 303, 307, 308) are followed up to 10, as Go's client does, unless
 *       {@code follow_redirects} is off: then a 3xx fails with its status. A redirect elsewhere
 *       gets a connection for that fetch only; one to {@code https://} goes to the JDK client.
 *   <li>The body goes into this thread's {@link PageBuffers} array, up to the size limit (a
 *       declared length over it fails before reading), then {@link Bodies} inflates gzip.
 * </ul>
 *
 * <p>Threading: {@link #fetch} is called by one loop, never concurrently with itself; {@link
 * #close()} may be called from another thread when the target goes away, and closes the socket.
 */
final class Http1Scraper implements Scraper {
  /** Go's client stops after this many redirects. */
  static final int MAX_REDIRECTS = 10;

  private final String url;
  private final long bodyLimit;
  private final int rawCap;
  private final boolean followRedirects;
  private final Supplier<Map<String, String>> headers;
  private final Function<String, Scraper> https;
  private final Http1Response response = new Http1Response();
  private int lastSize = 16 << 10;
  private final Http1Request request;
  // Parsed on the first fetch, so that a bad URL fails the scrape rather than the pool.
  private Http1Request.Hop origin;
  private volatile Http1Connection conn; // the keep-alive connection to the target
  private Http1Connection other; // to a redirect's other host, for one fetch
  private Http1Connection busy; // the connection an exchange is under way on
  private volatile boolean closed;

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
    this.url = url;
    this.bodyLimit = Math.min(bodyLimit, Integer.MAX_VALUE - 16);
    // A gzipped body can be a bit larger than its content only when incompressible; allow that.
    long cap = compression ? this.bodyLimit + (this.bodyLimit >> 6) + 1024 : this.bodyLimit;
    this.rawCap = (int) Math.min(cap, Integer.MAX_VALUE - 16);
    this.request = new Http1Request(compression);
    this.followRedirects = followRedirects;
    this.headers = headers;
    this.https = https;
  }

  @Override
  public Page fetch(Duration timeout) throws ScrapeFailure {
    long deadline = System.nanoTime() + timeout.toNanos();
    if (origin == null) {
      origin = request.hop(url);
    }
    Map<String, String> extra;
    try {
      extra = headers.get();
    } catch (UncheckedIOException e) {
      throw new ScrapeFailure(e.getMessage(), e); // names the file, never its content
    }
    try {
      return follow(extra, deadline, timeout);
    } catch (SocketTimeoutException e) {
      throw timedOut(timeout, e);
    } catch (IOException e) {
      throw new ScrapeFailure(describe(e), e);
    } finally {
      if (busy != null) {
        drop(busy); // failed mid-exchange: the connection's state is unknown
      }
      if (other != null) {
        drop(other);
      }
      if (closed && conn != null) {
        drop(conn);
      }
    }
  }

  private Page follow(Map<String, String> extra, long deadline, Duration timeout)
      throws IOException, ScrapeFailure {
    Http1Request.Hop hop = origin;
    for (int redirects = 0; ; redirects++) {
      Http1Connection c = exchange(hop, extra, timeout, deadline);
      int status = response.status;
      if (status == 200) {
        int n;
        try {
          n = response.readBody(c, deadline, rawCap, lastSize);
        } catch (SocketTimeoutException e) {
          throw e;
        } catch (IOException e) {
          throw new ScrapeFailure("reading the body: " + describe(e), e);
        }
        release(c);
        lastSize = Math.max(1024, n);
        return Bodies.page(
            response.body(), n, response.contentType, response.contentEncoding, bodyLimit, true);
      }
      String location = redirect(status) ? response.location : null;
      response.discardBody(c, deadline);
      release(c);
      if (location == null) {
        throw new ScrapeFailure("server returned HTTP status " + HttpScraper.status(status));
      }
      if (redirects == MAX_REDIRECTS) {
        throw new ScrapeFailure("stopped after " + MAX_REDIRECTS + " redirects");
      }
      URI next = resolve(hop.uri, location);
      String scheme = next.getScheme().toLowerCase(Locale.ROOT);
      if (scheme.equals("https")) {
        return viaHttps(next, deadline, timeout);
      }
      if (!scheme.equals("http")) {
        throw new ScrapeFailure("redirect to unsupported protocol scheme: " + next);
      }
      hop = request.hop(next.toString());
    }
  }

  private boolean redirect(int status) {
    return followRedirects
        && (status == 301 || status == 302 || status == 303 || status == 307 || status == 308);
  }

  /**
   * Sends the request and reads the response head, on the hop's connection; once more on a fresh
   * connection if a reused one failed before any response byte.
   */
  private Http1Connection exchange(
      Http1Request.Hop hop, Map<String, String> extra, Duration timeout, long deadline)
      throws IOException, ScrapeFailure {
    int len = request.encode(hop, timeout, extra);
    Http1Connection c = connectionFor(hop, deadline);
    busy = c;
    try {
      c.send(request.bytes(), len);
      response.readHead(c, deadline);
      return c;
    } catch (IOException e) {
      if (c.responses == 0 || c.received || e instanceof SocketTimeoutException) {
        throw e;
      }
    }
    drop(c);
    c = connectionFor(hop, deadline);
    busy = c;
    c.send(request.bytes(), len);
    response.readHead(c, deadline);
    return c;
  }

  private Http1Connection connectionFor(Http1Request.Hop hop, long deadline) throws IOException {
    boolean home = hop.host.equals(origin.host) && hop.port == origin.port;
    Http1Connection c = home ? conn : other;
    if (c != null && c.connectedTo(hop.host, hop.port)) {
      return c;
    }
    if (c != null) {
      drop(c);
    }
    c = Http1Connection.open(hop.host, hop.port, deadline);
    if (home) {
      conn = c;
    } else {
      other = c;
    }
    return c;
  }

  /** The exchange on {@code c} is over: keep the connection if the response allows it. */
  private void release(Http1Connection c) {
    busy = null;
    if (response.reusable(c)) {
      c.responses++;
      c.shrinkBuffer();
    } else {
      drop(c);
    }
  }

  private void drop(Http1Connection c) {
    c.close();
    if (c == conn) {
      conn = null;
    }
    if (c == other) {
      other = null;
    }
    if (c == busy) {
      busy = null;
    }
  }

  private Page viaHttps(URI next, long deadline, Duration timeout) throws ScrapeFailure {
    if (https == null) {
      throw new ScrapeFailure("redirect to https is not supported for plain-HTTP targets: " + next);
    }
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw timedOut(timeout, null);
    }
    try {
      return https.apply(next.toString()).fetch(Duration.ofNanos(left));
    } catch (ScrapeFailure f) {
      if (String.valueOf(f.getMessage()).startsWith("scrape timed out")) {
        throw timedOut(timeout, f); // the scrape's timeout, not what was left of it
      }
      throw f;
    }
  }

  private static URI resolve(URI base, String location) throws ScrapeFailure {
    try {
      URI loc = new URI(location);
      URI next;
      if (location.startsWith("?")) { // URI.resolve drops the last path segment here (RFC 2396)
        next =
            new URI(
                base.getScheme() + "://" + base.getRawAuthority() + base.getRawPath() + location);
      } else {
        next = base.resolve(loc);
      }
      if (next.getScheme() == null || next.getHost() == null) {
        throw new IllegalArgumentException("no host");
      }
      return next;
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      String shown = location.length() > 200 ? location.substring(0, 200) + "..." : location;
      throw new ScrapeFailure("malformed redirect Location \"" + shown + "\"");
    }
  }

  private static ScrapeFailure timedOut(Duration timeout, Throwable cause) {
    return new ScrapeFailure("scrape timed out after " + HttpScraper.seconds(timeout) + "s", cause);
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  /** Closes the keep-alive connection (the target went away); a later fetch would open one. */
  @Override
  public void close() {
    closed = true;
    Http1Connection c = conn;
    if (c != null) {
      c.close();
    }
  }
}
