package dev.infermon.scrape.http1;

import static dev.infermon.scrape.http1.Http1Bytes.ascii;
import static dev.infermon.scrape.http1.Http1Bytes.digit;
import static dev.infermon.scrape.http1.Http1Bytes.latin1;
import static dev.infermon.scrape.http1.Http1Bytes.name;
import static dev.infermon.scrape.http1.Http1Bytes.printable;
import static dev.infermon.scrape.http1.Http1Bytes.same;

import java.io.EOFException;
import java.io.IOException;

/**
 * Reads one HTTP/1.1 response from a {@link Http1Connection}: the status line and the headers a
 * scrape needs (names case-insensitive: {@code Content-Length}, {@code Transfer-Encoding}, {@code
 * Content-Type}, {@code Content-Encoding}, {@code Connection}, {@code Location}; others are skipped
 * without being copied), interim 1xx responses skipped, then the body by {@code Content-Length},
 * chunked (extensions and trailers skipped) or up to the end of the stream.
 *
 * <p>Errors: a malformed or oversized head, a malformed chunk or a body over the limit throw {@link
 * Http1Exception} naming what was wrong; socket errors, the deadline ({@link
 * java.net.SocketTimeoutException}) and a stream ending early ({@link EOFException}) throw {@link
 * IOException}. After any of them the connection must be closed.
 *
 * <p>Buffer ownership: the body goes into this thread's {@link BodyBuffers} array, which {@link
 * #body()} returns until the thread's next fetch. Threading: one instance per scraper, reused fetch
 * after fetch by one thread at a time.
 */
final class Http1Response {
  /** The most bytes of response heads (interim ones and trailers included) in one exchange. */
  static final int MAX_HEAD_BYTES = 64 << 10;

  /** Go's client gives up after this many interim responses too. */
  private static final int MAX_INTERIM = 5;

  private static final long NONE = -1;

  int status;
  String contentType;
  String contentEncoding = "";
  String location;
  private boolean http10;
  private boolean close;
  private boolean keepAlive;
  private boolean chunked;
  private long contentLength;
  private int headBytes;
  private boolean complete; // the body was read to its end, so the connection may serve another
  private byte[] body;

  /** Reads the final response's head, skipping interim (1xx) ones. */
  void readHead(Http1Connection c, long deadline) throws IOException, Http1Exception {
    headBytes = 0;
    complete = false;
    for (int interim = 0; ; interim++) {
      readOneHead(c, deadline);
      if (status >= 200 || status == 101) {
        return;
      }
      if (interim == MAX_INTERIM) {
        throw new Http1Exception("too many 1xx informational responses");
      }
    }
  }

  private void readOneHead(Http1Connection c, long deadline) throws IOException, Http1Exception {
    int end = line(c, deadline, true);
    parseStatusLine(c.buf, c.pos, end);
    c.pos = next(c, end);
    contentType = null;
    contentEncoding = "";
    location = null;
    close = false;
    keepAlive = false;
    chunked = false;
    contentLength = NONE;
    while (true) {
      end = line(c, deadline, true);
      int from = c.pos;
      c.pos = next(c, end);
      if (end == from) {
        return;
      }
      header(c.buf, from, end);
    }
  }

  /** The end of the next line, counted against the head's bytes when {@code head}. */
  private int line(Http1Connection c, long deadline, boolean head)
      throws IOException, Http1Exception {
    int end;
    try {
      end = c.lineEnd(deadline, head ? MAX_HEAD_BYTES - headBytes : MAX_HEAD_BYTES);
    } catch (EOFException e) {
      throw new EOFException(
          !head
              ? "connection closed in the body"
              : c.received ? "connection closed in the response head" : "connection closed");
    }
    if (end < 0) {
      throw head ? headTooLarge() : new Http1Exception("malformed chunked body: line too long");
    }
    if (head) {
      headBytes += next(c, end) - c.pos;
    }
    return end;
  }

  private static Http1Exception headTooLarge() {
    return new Http1Exception(
        "response headers larger than " + (MAX_HEAD_BYTES >> 10) + " KiB (malformed response?)");
  }

  private static int next(Http1Connection c, int end) {
    return c.next(end);
  }

  private void parseStatusLine(byte[] b, int from, int end) throws Http1Exception {
    int n = end - from;
    // "HTTP/1.1 200" at least, then nothing or a space and the reason (ignored: our own table
    // names the status, as before).
    if (n < 12
        || !ascii(b, from, "HTTP/1.")
        || (b[from + 7] != '0' && b[from + 7] != '1')
        || b[from + 8] != ' '
        || !digit(b[from + 9])
        || !digit(b[from + 10])
        || !digit(b[from + 11])
        || (n > 12 && b[from + 12] != ' ')) {
      throw new Http1Exception("malformed HTTP status line \"" + printable(b, from, end) + "\"");
    }
    http10 = b[from + 7] == '0';
    status = (b[from + 9] - '0') * 100 + (b[from + 10] - '0') * 10 + (b[from + 11] - '0');
  }

  private void header(byte[] b, int from, int end) throws Http1Exception {
    if (b[from] == ' ' || b[from] == '\t') {
      return; // obsolete line folding: a continuation of a header none of ours would fold
    }
    int colon = from;
    while (colon < end && b[colon] != ':') {
      if (b[colon] <= ' ' || b[colon] >= 127) {
        colon = end; // no spaces or controls in a name
        break;
      }
      colon++;
    }
    if (colon == end || colon == from) {
      throw new Http1Exception(
          "malformed HTTP response header \"" + printable(b, from, end) + "\"");
    }
    int v = colon + 1;
    while (v < end && (b[v] == ' ' || b[v] == '\t')) {
      v++;
    }
    int ve = end;
    while (ve > v && (b[ve - 1] == ' ' || b[ve - 1] == '\t')) {
      ve--;
    }
    switch (colon - from) {
      case 8 -> {
        if (name(b, from, "location")) {
          location = latin1(b, v, ve);
        }
      }
      case 10 -> {
        if (name(b, from, "connection")) {
          connectionTokens(b, v, ve);
        }
      }
      case 12 -> {
        if (name(b, from, "content-type")) {
          contentType = same(contentType, b, v, ve) ? contentType : latin1(b, v, ve);
        }
      }
      case 14 -> {
        if (name(b, from, "content-length")) {
          long len = contentLength(b, v, ve);
          if (contentLength != NONE && contentLength != len) {
            throw new Http1Exception("conflicting Content-Length headers");
          }
          contentLength = len;
        }
      }
      case 16 -> {
        if (name(b, from, "content-encoding")) {
          contentEncoding = ve - v == 4 && name(b, v, "gzip") ? "gzip" : latin1(b, v, ve);
        }
      }
      case 17 -> {
        if (name(b, from, "transfer-encoding")) {
          if (ve - v != 7 || !name(b, v, "chunked")) {
            // Go's client supports no other transfer coding either.
            throw new Http1Exception(
                "unsupported Transfer-Encoding \"" + printable(b, v, ve) + "\"");
          }
          chunked = true;
        }
      }
      default -> {}
    }
  }

  private void connectionTokens(byte[] b, int from, int end) {
    int i = from;
    while (i < end) {
      int s = i;
      while (i < end && b[i] != ',') {
        i++;
      }
      int e = i;
      while (s < e && (b[s] == ' ' || b[s] == '\t')) {
        s++;
      }
      while (e > s && (b[e - 1] == ' ' || b[e - 1] == '\t')) {
        e--;
      }
      if (e - s == 5 && name(b, s, "close")) {
        close = true;
      } else if (e - s == 10 && name(b, s, "keep-alive")) {
        keepAlive = true;
      }
      i++;
    }
  }

  private static long contentLength(byte[] b, int from, int end) throws Http1Exception {
    long n = 0;
    if (from == end || end - from > 18) {
      throw badContentLength(b, from, end);
    }
    for (int i = from; i < end; i++) {
      if (!digit(b[i])) {
        throw badContentLength(b, from, end);
      }
      n = n * 10 + (b[i] - '0');
    }
    return n;
  }

  private static Http1Exception badContentLength(byte[] b, int from, int end) {
    return new Http1Exception("malformed Content-Length \"" + printable(b, from, end) + "\"");
  }

  /** Whether a body follows the head (RFC 9112 6.3: none after 204 and 304). */
  private boolean hasBody() {
    return status != 204 && status != 304;
  }

  /**
   * Whether the connection can carry the next request: the body was read to its end, nothing unread
   * is buffered (we never pipeline, so extra bytes mean a confused peer), and the response did not
   * ask to close. A response with both framings is suspect (RFC 9112 6.3): not reused.
   */
  boolean reusable(Http1Connection c) {
    return complete
        && c.pos == c.lim
        && !close
        && (!http10 || keepAlive)
        && !(chunked && contentLength != NONE);
  }

  /**
   * Reads the body into this thread's {@link BodyBuffers} array, refusing more than {@code cap}
   * bytes (a declared length over it fails before any body byte is read).
   *
   * @param sizeHint the array size to start from when the length is not declared
   * @return the body's length; the bytes are {@link #body()}{@code [0, length)}
   */
  int readBody(Http1Connection c, long deadline, int cap, int sizeHint)
      throws IOException, Http1Exception {
    if (!hasBody()) {
      body = BodyBuffers.take(1024);
      complete = true;
      return 0;
    }
    if (chunked) {
      body = BodyBuffers.take(Math.max(1024, Math.min(cap, sizeHint)));
      return readChunked(c, deadline, cap);
    }
    if (contentLength != NONE) {
      if (contentLength > cap) {
        throw new Http1Exception("body size limit exceeded");
      }
      int len = (int) contentLength;
      body = BodyBuffers.take(Math.max(1024, len));
      readFully(c, deadline, 0, len);
      complete = true;
      return len;
    }
    body = BodyBuffers.take(Math.max(1024, Math.min(cap, sizeHint)));
    return readToEnd(c, deadline, cap); // never complete: the end of the stream ends the body
  }

  byte[] body() {
    return body;
  }

  /**
   * Reads and drops a small body (an error page, a redirect's) so that the connection can be
   * reused, as Go's client does; a large or unframed one is left, and the connection with it.
   */
  void discardBody(Http1Connection c, long deadline) throws IOException {
    if (!hasBody() || contentLength == 0) {
      complete = !chunked;
      return;
    }
    if (chunked || contentLength == NONE || contentLength > Http1Connection.BUFFER_BYTES) {
      return;
    }
    long left = contentLength;
    while (left > 0) {
      if (c.pos == c.lim && !c.fill(deadline, c.buf.length)) {
        throw new EOFException("connection closed in the body");
      }
      int n = (int) Math.min(left, c.lim - c.pos);
      c.pos += n;
      left -= n;
    }
    complete = true;
  }

  private void readFully(Http1Connection c, long deadline, int off, int len) throws IOException {
    int n = 0;
    while (n < len) {
      int r = c.read(body, off + n, len - n, deadline);
      if (r < 0) {
        throw new EOFException("connection closed in the body");
      }
      n += r;
    }
  }

  private int readToEnd(Http1Connection c, long deadline, int cap)
      throws IOException, Http1Exception {
    int n = 0;
    while (true) {
      // The thread's array may be larger than this target's limit: read no further than one byte
      // past it, which tells an overflow from the end.
      int room = (int) Math.min(body.length, cap + 1L);
      if (n == room) {
        if (n > cap) {
          throw new Http1Exception("body size limit exceeded");
        }
        grow(n, n + 1L, cap + 1L);
        room = (int) Math.min(body.length, cap + 1L);
      }
      int r = c.read(body, n, room - n, deadline);
      if (r < 0) {
        break;
      }
      n += r;
    }
    if (n > cap) {
      throw new Http1Exception("body size limit exceeded");
    }
    return n;
  }

  private int readChunked(Http1Connection c, long deadline, int cap)
      throws IOException, Http1Exception {
    int n = 0;
    while (true) {
      int end = line(c, deadline, false);
      long size = chunkSize(c.buf, c.pos, end);
      c.pos = next(c, end);
      if (size == 0) {
        break;
      }
      if (n + size > cap) {
        throw new Http1Exception("body size limit exceeded");
      }
      grow(n, n + size, cap);
      readFully(c, deadline, n, (int) size);
      n += (int) size;
      end = line(c, deadline, false);
      if (end != c.pos) {
        throw new Http1Exception("malformed chunked body: no line end after a chunk");
      }
      c.pos = next(c, end);
    }
    while (true) { // trailers, up to the empty line; they count as head bytes
      int end = line(c, deadline, true);
      int from = c.pos;
      c.pos = next(c, end);
      if (end == from) {
        break;
      }
    }
    complete = true;
    return n;
  }

  private static long chunkSize(byte[] b, int from, int end) throws Http1Exception {
    long size = 0;
    int i = from;
    for (; i < end && i - from < 8; i++) { // 8 hex digits reach past any body we accept
      int d = Character.digit(b[i], 16);
      if (d < 0) {
        break;
      }
      size = size * 16 + d;
    }
    // Then optional whitespace and extensions (";name=value"), which mean nothing to us.
    if (i == from || (i < end && b[i] != ';' && b[i] != ' ' && b[i] != '\t')) {
      throw new Http1Exception(
          "malformed chunked body: bad chunk size line \"" + printable(b, from, end) + "\"");
    }
    return size;
  }

  /** Makes {@link #body} hold {@code want} bytes, keeping {@code [0, n)}, growing up to max. */
  private void grow(int n, long want, long max) {
    if (want <= body.length) {
      return;
    }
    byte[] b = new byte[(int) Math.min(max, Math.max(want, body.length * 2L))];
    System.arraycopy(body, 0, b, 0, n);
    body = b;
    BodyBuffers.keep(b);
  }
}
