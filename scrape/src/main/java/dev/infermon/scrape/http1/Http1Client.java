package dev.infermon.scrape.http1;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * infermon's HTTP/1.1 client for one plain-HTTP scrape target: one keep-alive connection of its
 * own, used from the calling scrape worker, for the narrow exchange a scrape is (one GET, one
 * response, never two at once) over {@link java.net.Socket}, without a general client's layers
 * (docs/rationale.md, "A purpose-built HTTP/1.1 client for plain-HTTP scrapes"). The request is
 * Prometheus 2.42's scrape request. This package knows nothing of scraping beyond that: the scrape
 * package turns a {@link Response} into a page (status check, decompression) and an error into the
 * target's last error.
 *
 * <ul>
 *   <li>The request line and fixed headers are encoded once; each fetch adds the timeout header and
 *       the supplied headers (read per fetch: credential files may change) and goes out in one
 *       write.
 *   <li>One deadline for the whole exchange, body included, enforced by the socket timeout armed
 *       with the time left before each blocking read ({@link Http1Connection}); no timer task.
 *   <li>A request that fails before any response byte on a reused connection is sent once more on a
 *       fresh one (the target closed the idle connection: uvicorn, which serves vLLM, does after 5
 *       s), as Go's client does; never after a status, a timeout, a refused connection or a partial
 *       response.
 *   <li>Redirects (301, 302, 303, 307, 308) are followed up to {@link #MAX_REDIRECTS}, as Go's
 *       client does, unless {@code followRedirects} is off: then the 3xx is the response. A
 *       redirect elsewhere gets a connection for that fetch only; one to {@code https://} ends the
 *       fetch with {@link Response#httpsLocation()}, for a TLS-capable client to take over.
 *   <li>The body goes into this thread's reused array, up to the cap (a declared length over it
 *       fails before reading); it is handed over as received, compressed or not.
 * </ul>
 *
 * <p>Buffer ownership: a {@link Response}'s body is this thread's array, valid until this thread's
 * next fetch (on any client). Threading: {@link #fetch} is called by one thread at a time, never
 * concurrently with itself; {@link #close()} may be called from another thread when the target goes
 * away, and closes the socket.
 */
public final class Http1Client {
  /** Go's client stops after this many redirects. */
  public static final int MAX_REDIRECTS = 10;

  /**
   * The final response of a fetch, its body read to the end or discarded.
   *
   * @param status the status code; the body is kept for 200 only ({@code body} null otherwise)
   * @param body {@code body[0, length)} as received (see {@code contentEncoding}); this thread's
   *     array
   * @param contentType the {@code Content-Type} header, or null
   * @param contentEncoding the {@code Content-Encoding} header ({@code "gzip"} in lower case), or
   *     empty
   * @param httpsLocation non-null when a followed redirect (of status {@code status}) led to this
   *     {@code https://} URL, which this client does not fetch
   */
  public record Response(
      int status,
      byte[] body,
      int length,
      String contentType,
      String contentEncoding,
      String httpsLocation) {}

  private final String url;
  private final int bodyCap;
  private final boolean followRedirects;
  private final Supplier<Map<String, String>> headers;
  private final Http1Request request;
  private final Http1Response response = new Http1Response();
  private int lastSize = 16 << 10;
  // Parsed on the first fetch, so that a bad URL fails the scrape rather than the pool.
  private Http1Request.Hop origin;
  private volatile Http1Connection conn; // the keep-alive connection to the target
  private Http1Connection other; // to a redirect's other host, for one fetch
  private Http1Connection busy; // the connection an exchange is under way on
  private volatile boolean closed;

  private Http1Client(
      String url,
      String userAgent,
      String accept,
      boolean compression,
      boolean followRedirects,
      int bodyCap,
      Supplier<Map<String, String>> headers) {
    this.url = url;
    this.bodyCap = bodyCap;
    this.request = new Http1Request(userAgent, accept, compression);
    this.followRedirects = followRedirects;
    this.headers = headers;
  }

  /**
   * A client for {@code url}; nothing is connected or parsed until the first fetch.
   *
   * @param userAgent the {@code User-Agent} header
   * @param accept the {@code Accept} header
   * @param compression whether to send {@code Accept-Encoding: gzip}
   * @param bodyCap the largest body accepted as received, in bytes
   * @param headers extra headers per request (authorization, configured headers), asked for on
   *     every fetch; one named as a fixed header replaces it. An {@link UncheckedIOException} it
   *     throws fails the fetch with its message (which names a file, never its content).
   * @throws IllegalArgumentException when {@code bodyCap} is negative
   */
  public static Http1Client create(
      String url,
      String userAgent,
      String accept,
      boolean compression,
      boolean followRedirects,
      int bodyCap,
      Supplier<Map<String, String>> headers) {
    if (bodyCap < 0) {
      throw new IllegalArgumentException("bodyCap must not be negative: " + bodyCap);
    }
    return new Http1Client(
        Objects.requireNonNull(url, "url"),
        Objects.requireNonNull(userAgent, "userAgent"),
        Objects.requireNonNull(accept, "accept"),
        compression,
        followRedirects,
        bodyCap,
        Objects.requireNonNull(headers, "headers"));
  }

  /**
   * GETs the URL within {@code timeout} (which the timeout header states), following redirects.
   *
   * @throws SocketTimeoutException when the deadline passed, connecting or reading
   * @throws Http1Exception for every other failure, with the message operators see
   */
  public Response fetch(Duration timeout) throws SocketTimeoutException, Http1Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    if (origin == null) {
      origin = request.hop(url);
    }
    Map<String, String> extra;
    try {
      extra = headers.get();
    } catch (UncheckedIOException e) {
      throw new Http1Exception(e.getMessage(), e); // names the file, never its content
    }
    try {
      return follow(extra, deadline, timeout);
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (IOException e) {
      throw new Http1Exception(describe(e), e);
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

  private Response follow(Map<String, String> extra, long deadline, Duration timeout)
      throws IOException, Http1Exception {
    Http1Request.Hop hop = origin;
    for (int redirects = 0; ; redirects++) {
      Http1Connection c = exchange(hop, extra, timeout, deadline);
      int status = response.status;
      if (status == 200) {
        int n;
        try {
          n = response.readBody(c, deadline, bodyCap, lastSize);
        } catch (SocketTimeoutException e) {
          throw e;
        } catch (IOException e) {
          throw new Http1Exception("reading the body: " + describe(e), e);
        }
        release(c);
        lastSize = Math.max(1024, n);
        return new Response(
            200, response.body(), n, response.contentType, response.contentEncoding, null);
      }
      String location = redirect(status) ? response.location : null;
      response.discardBody(c, deadline);
      release(c);
      if (location == null) {
        return new Response(status, null, 0, response.contentType, response.contentEncoding, null);
      }
      if (redirects == MAX_REDIRECTS) {
        throw new Http1Exception("stopped after " + MAX_REDIRECTS + " redirects");
      }
      URI next = resolve(hop.uri, location);
      String scheme = next.getScheme().toLowerCase(Locale.ROOT);
      if (scheme.equals("https")) {
        return new Response(status, null, 0, null, "", next.toString());
      }
      if (!scheme.equals("http")) {
        throw new Http1Exception("redirect to unsupported protocol scheme: " + next);
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
      throws IOException, Http1Exception {
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

  private static URI resolve(URI base, String location) throws Http1Exception {
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
      throw new Http1Exception("malformed redirect Location \"" + shown + "\"");
    }
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  /** Closes the keep-alive connection (the target went away); a later fetch would open one. */
  public void close() {
    closed = true;
    Http1Connection c = conn;
    if (c != null) {
      c.close();
    }
  }
}
