package dev.infermon.scrape.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How {@link Http1Client} reads responses, one table: each case is the exact bytes a raw-socket
 * server on 127.0.0.1 answers every request with, and either the page (a gzipped body is inflated
 * here: the client hands bodies over as received) and how many connections three fetches take (1:
 * the connection was reused), the status of a response without a page, or the error a fetch fails
 * with.
 */
class Http1ResponseTest {
  private static final String PAGE = "a_total 1\nb_total{x=\"1\"} 2\n";
  private static final int LIMIT = 4096;

  private RawHttpServer server;
  private Http1Client client;

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /**
   * A response; {@code closes}: the server closes the connection after it (else it waits for the
   * next request); {@code page} and {@code connections} for a good one, {@code status} for one
   * without a page, {@code error} for a bad one.
   */
  record Case(
      String name,
      byte[] response,
      boolean closes,
      String page,
      int connections,
      int status,
      String error) {
    static Case ok(String name, byte[] response, boolean closes, int connections) {
      return new Case(name, response, closes, PAGE, connections, 200, null);
    }

    static Case status(String name, byte[] response, int status) {
      return new Case(name, response, true, null, 0, status, null);
    }

    static Case bad(String name, byte[] response, String error) {
      return new Case(name, response, true, null, 0, 0, error);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static byte[] r(String head, String body) {
    return RawHttpServer.response(head, body);
  }

  private static byte[] r(String head, byte[] body) {
    return RawHttpServer.response(head, body);
  }

  private static String chunked(String... chunks) {
    StringBuilder sb = new StringBuilder();
    for (String c : chunks) {
      sb.append(Integer.toHexString(c.length())).append("\r\n").append(c).append("\r\n");
    }
    return sb.append("0\r\n\r\n").toString();
  }

  private static byte[] gzipChunked(byte[] z) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int i = 0; i < z.length; i += 7) {
      int n = Math.min(7, z.length - i);
      b.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      b.write(z, i, n);
      b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    b.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    return b.toByteArray();
  }

  static Stream<Case> cases() {
    int len = PAGE.length();
    String half1 = PAGE.substring(0, 10);
    String half2 = PAGE.substring(10, 12);
    String half3 = PAGE.substring(12);
    byte[] z = gzip(PAGE.getBytes(StandardCharsets.US_ASCII));
    String bigHeader = "X-Big: " + "v".repeat(1000) + "\n";
    return Stream.of(
        Case.ok("Content-Length", RawHttpServer.ok(PAGE), false, 1),
        Case.ok(
            "header names in any case",
            r("HTTP/1.1 200 OK\ncontent-LENGTH:  " + len + " ", PAGE),
            false,
            1),
        Case.ok(
            "bare LF line ends",
            ("HTTP/1.1 200 OK\nContent-Length: " + len + "\n\n" + PAGE)
                .getBytes(StandardCharsets.US_ASCII),
            false,
            1),
        Case.ok("no reason phrase", r("HTTP/1.1 200\nContent-Length: " + len, PAGE), false, 1),
        Case.ok(
            "chunked, several chunks",
            r("HTTP/1.1 200 OK\nTransfer-Encoding: chunked", chunked(half1, half2, half3)),
            false,
            1),
        Case.ok(
            "chunked with extensions and trailers",
            r(
                "HTTP/1.1 200 OK\nTransfer-Encoding: Chunked",
                "A;name=value;x\r\n"
                    + half1
                    + "\r\n"
                    + Integer.toHexString(len - 10).toUpperCase()
                    + " ; ext\r\n"
                    + PAGE.substring(10)
                    + "\r\n0;last\r\nX-Trailer: 1\r\nX-Other: 2\r\n\r\n"),
            false,
            1),
        Case.ok("read to the end of the stream", r("HTTP/1.1 200 OK", PAGE), true, 3),
        Case.ok(
            "both Content-Length and chunked: chunked, not reused",
            r("HTTP/1.1 200 OK\nContent-Length: 3\nTransfer-Encoding: chunked", chunked(PAGE)),
            false,
            3),
        Case.ok(
            "100 Continue and 103 Early Hints skipped",
            r(
                "HTTP/1.1 100 Continue\n\nHTTP/1.1 103 Early Hints\nLink: </x>\n\n"
                    + "HTTP/1.1 200 OK\nContent-Length: "
                    + len,
                PAGE),
            false,
            1),
        Case.ok(
            "gzip",
            r("HTTP/1.1 200 OK\nContent-Encoding: gzip\nContent-Length: " + z.length, z),
            false,
            1),
        Case.ok(
            "gzip, chunked",
            r(
                "HTTP/1.1 200 OK\nContent-Encoding: GZIP\nTransfer-Encoding: chunked",
                gzipChunked(z)),
            false,
            1),
        Case.ok(
            "large headers within the limit",
            r("HTTP/1.1 200 OK\n" + bigHeader.repeat(60) + "Content-Length: " + len, PAGE),
            false,
            1),
        Case.bad(
            "no status code", r("HTTP/1.1 OK", ""), "malformed HTTP status line \"HTTP/1.1 OK\""),
        Case.bad("not HTTP", r("ICY 200 OK", ""), "malformed HTTP status line \"ICY 200 OK\""),
        Case.bad("HTTP/2 status line", r("HTTP/2 200", ""), "malformed HTTP status line"),
        Case.bad(
            "header without a colon",
            r("HTTP/1.1 200 OK\nContent-Length 5", "hello"),
            "malformed HTTP response header \"Content-Length 5\""),
        Case.bad(
            "space before the colon",
            r("HTTP/1.1 200 OK\nContent-Length : 5", "hello"),
            "malformed HTTP response header"),
        Case.bad(
            "bad Content-Length",
            r("HTTP/1.1 200 OK\nContent-Length: 12abc", ""),
            "malformed Content-Length \"12abc\""),
        Case.bad(
            "conflicting Content-Lengths",
            r("HTTP/1.1 200 OK\nContent-Length: 5\nContent-Length: 6", "hello!"),
            "conflicting Content-Length headers"),
        Case.bad(
            "unsupported transfer coding",
            r("HTTP/1.1 200 OK\nTransfer-Encoding: gzip, chunked", ""),
            "unsupported Transfer-Encoding \"gzip, chunked\""),
        Case.bad(
            "bad chunk size",
            r("HTTP/1.1 200 OK\nTransfer-Encoding: chunked", "zz\r\nhello\r\n0\r\n\r\n"),
            "malformed chunked body: bad chunk size line \"zz\""),
        Case.bad(
            "chunk longer than its size",
            r("HTTP/1.1 200 OK\nTransfer-Encoding: chunked", "3\r\nhello\r\n0\r\n\r\n"),
            "malformed chunked body: no line end after a chunk"),
        Case.bad(
            "chunked body cut short",
            r("HTTP/1.1 200 OK\nTransfer-Encoding: chunked", "5\r\nhel"),
            "reading the body: EOFException"),
        Case.bad(
            "Content-Length body cut short",
            r("HTTP/1.1 200 OK\nContent-Length: 100", "hello"),
            "reading the body: EOFException: connection closed in the body"),
        Case.bad(
            "head cut short",
            "HTTP/1.1 200 OK\r\nContent-Le".getBytes(StandardCharsets.US_ASCII),
            "EOFException: connection closed in the response head"),
        Case.bad(
            "headers over 64 KiB",
            r("HTTP/1.1 200 OK\n" + bigHeader.repeat(70) + "Content-Length: 0", ""),
            "response headers larger than 64 KiB"),
        Case.bad(
            "one endless header line",
            ("HTTP/1.1 200 OK\r\nX: " + "v".repeat(70_000)).getBytes(StandardCharsets.US_ASCII),
            "response headers larger than 64 KiB"),
        Case.bad(
            "too many interim responses",
            r("HTTP/1.1 100 Continue\n\n".repeat(6) + "HTTP/1.1 200 OK\nContent-Length: 0", ""),
            "too many 1xx informational responses"),
        Case.status("204: no body, no page", r("HTTP/1.1 204 No Content", ""), 204),
        Case.status(
            "404 with an error page", r("HTTP/1.1 404 Not Found\nContent-Length: 4", "nope"), 404),
        Case.bad(
            "declared length over the limit",
            r("HTTP/1.1 200 OK\nContent-Length: 999999999", ""),
            "body size limit exceeded"),
        Case.bad(
            "chunked over the limit",
            r(
                "HTTP/1.1 200 OK\nTransfer-Encoding: chunked",
                chunked("x".repeat(3000), "x".repeat(3000))),
            "body size limit exceeded"),
        Case.bad(
            "read to the end over the limit",
            r("HTTP/1.1 200 OK", "x".repeat(3 * LIMIT)),
            "body size limit exceeded"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void responses(Case c) throws Exception {
    server =
        new RawHttpServer(
            (req, out) -> {
              out.write(c.response());
              return !c.closes();
            });
    client = Http1Client.create(server.url("/m"), "infermon", "*/*", false, true, LIMIT, Map::of);
    if (c.error() != null) {
      assertThatThrownBy(() -> client.fetch(Duration.ofSeconds(2)))
          .isInstanceOf(Http1Exception.class)
          .hasMessageContaining(c.error());
      return;
    }
    if (c.page() == null) {
      Http1Client.Response r = client.fetch(Duration.ofSeconds(2));
      assertThat(r.status()).isEqualTo(c.status());
      assertThat(r.body()).isNull();
      return;
    }
    for (int i = 0; i < 3; i++) {
      assertThat(page(client.fetch(Duration.ofSeconds(2)))).isEqualTo(c.page());
    }
    assertThat(server.connections()).isEqualTo(c.connections());
  }

  /** The page of a 200, inflated when gzipped. */
  static String page(Http1Client.Response r) throws IOException {
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.httpsLocation()).isNull();
    byte[] b = Arrays.copyOf(r.body(), r.length());
    if (r.contentEncoding().equals("gzip")) {
      try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(b))) {
        b = in.readAllBytes();
      }
    }
    return new String(b, StandardCharsets.UTF_8);
  }

  static byte[] gzip(byte[] b) {
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(bo)) {
      z.write(b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bo.toByteArray();
  }
}
