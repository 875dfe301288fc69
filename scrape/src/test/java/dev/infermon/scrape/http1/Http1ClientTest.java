package dev.infermon.scrape.http1;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Http1Client}'s connection handling against raw-socket servers on 127.0.0.1: keep-alive
 * reuse, {@code Connection: close}, the stale-connection retry (a target that closes idle
 * connections, as uvicorn does) and where it must not happen, redirects, request headers, and
 * {@link Http1Client#close()}. Framing and malformed responses: {@link Http1ResponseTest}; what the
 * scrape package makes of responses and errors: {@code dev.infermon.scrape.Http1ScraperTest}.
 */
class Http1ClientTest {
  private static final String PAGE = "a_total 1\n";
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final String ACCEPT = "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

  private final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
  }

  private RawHttpServer server(RawHttpServer.Handler h) {
    RawHttpServer s = new RawHttpServer(h);
    closing.add(s);
    return s;
  }

  /** A server answering every request with {@code head} and an empty body, kept alive. */
  private RawHttpServer answering(String head) {
    return server((r, out) -> keep(out, RawHttpServer.response(head, "")));
  }

  private Http1Client client(String url, boolean follow, Supplier<Map<String, String>> headers) {
    Http1Client c = Http1Client.create(url, "infermon", ACCEPT, true, follow, 64 << 10, headers);
    closing.add(c::close);
    return c;
  }

  private Http1Client client(RawHttpServer server) {
    return client(server.url("/metrics"), true, Map::of);
  }

  private static String text(Http1Client.Response r) throws IOException {
    return Http1ResponseTest.page(r);
  }

  private static String failure(Http1Client c) throws IOException {
    try {
      c.fetch(TIMEOUT);
    } catch (Http1Exception f) {
      return f.getMessage();
    }
    throw new AssertionError("fetch should fail");
  }

  /** One response per connection, keep-alive implied, then the connection is dropped. */
  @Test
  void connectionClosedWhileIdleIsRetriedOnceOnAFreshOne() throws Exception {
    RawHttpServer server =
        server(
            (r, out) -> {
              out.write(RawHttpServer.ok(PAGE));
              return false;
            });
    Http1Client c = client(server);
    for (int i = 0; i < 3; i++) {
      assertThat(text(c.fetch(TIMEOUT))).isEqualTo(PAGE);
      Thread.sleep(50); // let the server's close arrive while the connection is idle
    }
    assertThat(server.connections()).isEqualTo(3);
  }

  @Test
  void refusedConnectionFailsWithoutRetryingForever() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Http1Client c = client("http://127.0.0.1:" + port + "/m", true, Map::of);
    long t0 = System.nanoTime();
    assertThat(failure(c)).contains("ConnectException");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(TIMEOUT);
  }

  @Test
  void aBadUrlFailsTheFetchNotTheClient() throws Exception {
    assertThat(failure(client("http://[::1/m", true, Map::of))).startsWith("invalid target URL");
    assertThat(failure(client("ftp://127.0.0.1/m", true, Map::of)))
        .isEqualTo("invalid target URL: ftp://127.0.0.1/m");
  }

  @Test
  void keepAliveCarriesEveryScrapeOnOneConnection() throws Exception {
    RawHttpServer server = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    Http1Client c = client(server);
    for (int i = 0; i < 5; i++) {
      assertThat(text(c.fetch(TIMEOUT))).isEqualTo(PAGE);
    }
    assertThat(server.requests()).hasSize(5);
    assertThat(server.connections()).isEqualTo(1);
  }

  @Test
  void requestCarriesTheScrapeHeadersAndTheSuppliedOnesPerFetch() throws Exception {
    RawHttpServer server = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    String[] token = {"one"};
    Http1Client c =
        client(
            server.url("/metrics?x=1&y=%20"),
            true,
            () -> Map.of("Authorization", "Bearer " + token[0]));
    c.fetch(TIMEOUT);
    token[0] = "two"; // a rotated credential file
    c.fetch(Duration.ofMillis(1500));
    RawHttpServer.Request first = server.requests().get(0);
    RawHttpServer.Request second = server.requests().get(1);
    assertThat(first.head()).startsWith("GET /metrics?x=1&y=%20 HTTP/1.1\r\n");
    assertThat(first.header("host")).isEqualTo("127.0.0.1:" + server.port());
    assertThat(first.header("accept")).isEqualTo(ACCEPT);
    assertThat(first.header("user-agent")).isEqualTo("infermon");
    assertThat(first.header("accept-encoding")).isEqualTo("gzip");
    assertThat(first.header("x-prometheus-scrape-timeout-seconds")).isEqualTo("2");
    assertThat(first.header("authorization")).isEqualTo("Bearer one");
    assertThat(second.header("authorization")).isEqualTo("Bearer two");
    assertThat(second.header("x-prometheus-scrape-timeout-seconds")).isEqualTo("1.5");
  }

  @Test
  void aConfiguredHeaderReplacesOursAndALineBreakInOneIsRefusedWithoutShowingIt() throws Exception {
    RawHttpServer server = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    client(server.url("/m"), true, () -> Map.of("accept", "text/plain")).fetch(TIMEOUT);
    assertThat(server.requests().get(0).head()).containsOnlyOnce("ccept: ");
    assertThat(server.requests().get(0).header("accept")).isEqualTo("text/plain");

    Http1Client bad =
        client(server.url("/m"), true, () -> Map.of("Authorization", "secret\r\nX: y"));
    assertThat(failure(bad))
        .isEqualTo("invalid header field value for \"Authorization\"")
        .doesNotContain("secret");
  }

  @Test
  void connectionCloseAndHttp10AreHonoured() throws Exception {
    String[][] cases = {
      {"HTTP/1.1 200 OK\nConnection: close", "3"},
      {"HTTP/1.1 200 OK\nConnection: Keep-Alive, CLOSE", "3"},
      {"HTTP/1.0 200 OK", "3"},
      {"HTTP/1.0 200 OK\nConnection: keep-alive", "1"},
      {"HTTP/1.1 200 OK\nConnection: keep-alive", "1"},
    };
    for (String[] c : cases) {
      byte[] resp = RawHttpServer.response(c[0] + "\nContent-Length: " + PAGE.length(), PAGE);
      RawHttpServer server = server((r, out) -> keep(out, resp)); // the server would go on
      Http1Client client = client(server);
      for (int i = 0; i < 3; i++) {
        assertThat(text(client.fetch(TIMEOUT))).isEqualTo(PAGE);
      }
      assertThat(server.connections()).as(c[0]).isEqualTo(Integer.parseInt(c[1]));
    }
  }

  @Test
  void noRetryAfterAPartialResponse() throws Exception {
    RawHttpServer server =
        server(
            (r, out) -> {
              if (r.index() == 1) {
                return keep(out, RawHttpServer.ok(PAGE));
              }
              out.write("HTTP/1.1 200 OK\r\nContent-Le".getBytes(StandardCharsets.US_ASCII));
              return false;
            });
    Http1Client c = client(server);
    c.fetch(TIMEOUT);
    assertThat(failure(c)).contains("EOFException: connection closed in the response head");
    assertThat(server.connections()).isEqualTo(1);
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void theStaleConnectionRetryHappensOnceOnly() throws Exception {
    RawHttpServer server =
        server(
            (r, out) -> r.connection() == 1 && r.index() == 1 && keep(out, RawHttpServer.ok(PAGE)));
    Http1Client c = client(server);
    c.fetch(TIMEOUT);
    assertThat(failure(c)).isEqualTo("EOFException: connection closed");
    assertThat(server.connections()).isEqualTo(2); // the reused one, then one fresh one
  }

  @Test
  void redirectsAreFollowedOnTheSameConnection() throws Exception {
    RawHttpServer server =
        server(
            (r, out) ->
                keep(
                    out,
                    r.path().equals("/metrics")
                        ? RawHttpServer.response(
                            "HTTP/1.1 301 Moved Permanently\nLocation: /metrics/\nContent-Length: 4",
                            "gone")
                        : RawHttpServer.ok(PAGE)));
    Http1Client c = client(server);
    assertThat(text(c.fetch(TIMEOUT))).isEqualTo(PAGE);
    assertThat(text(c.fetch(TIMEOUT))).isEqualTo(PAGE);
    assertThat(server.requests())
        .extracting(RawHttpServer.Request::path)
        .containsExactly("/metrics", "/metrics/", "/metrics", "/metrics/");
    assertThat(server.requests().get(1).header("accept")).isEqualTo(ACCEPT);
    assertThat(server.connections()).isEqualTo(1);
  }

  @Test
  void whenRedirectsAreNotFollowedTheRedirectIsTheResponse() throws Exception {
    RawHttpServer server = answering("HTTP/1.1 302 Found\nLocation: /x\nContent-Length: 0");
    Http1Client.Response r = client(server.url("/m"), false, Map::of).fetch(TIMEOUT);
    assertThat(r.status()).isEqualTo(302);
    assertThat(r.body()).isNull();
    assertThat(r.httpsLocation()).isNull();
    assertThat(server.requests()).hasSize(1);
    // Followed or not, a 3xx without a Location is the response, as in Go's client.
    RawHttpServer bare = answering("HTTP/1.1 307 X\nContent-Length: 0");
    assertThat(client(bare).fetch(TIMEOUT).status()).isEqualTo(307);
  }

  @Test
  void aRedirectLoopStopsAfterTenRedirects() throws Exception {
    RawHttpServer server =
        server(
            (r, out) ->
                keep(
                    out,
                    RawHttpServer.response(
                        "HTTP/1.1 308 Permanent Redirect\nLocation: "
                            + r.path()
                            + "\nContent-Length: 0",
                        "")));
    assertThat(failure(client(server))).isEqualTo("stopped after 10 redirects");
    assertThat(server.requests()).hasSize(11);
    assertThat(server.connections()).isEqualTo(1);
  }

  @Test
  void aRedirectToAnotherServerUsesAConnectionForThatFetchOnly() throws Exception {
    RawHttpServer elsewhere = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    RawHttpServer home =
        answering(
            "HTTP/1.1 302 Found\nLocation: " + elsewhere.url("/real") + "\nContent-Length: 0");
    Http1Client c = client(home);
    assertThat(text(c.fetch(TIMEOUT))).isEqualTo(PAGE);
    assertThat(text(c.fetch(TIMEOUT))).isEqualTo(PAGE);
    assertThat(home.connections()).isEqualTo(1);
    assertThat(elsewhere.connections()).isEqualTo(2);
    assertThat(elsewhere.requests().get(0).header("host"))
        .isEqualTo("127.0.0.1:" + elsewhere.port());
    waitFor(() -> elsewhere.clientCloses() == 2);
  }

  @Test
  void aRedirectToHttpsOrAnotherSchemeEndsTheFetch() throws Exception {
    RawHttpServer server =
        answering("HTTP/1.1 302 Found\nLocation: https://127.0.0.1:1/m\nContent-Length: 0");
    Http1Client.Response r = client(server).fetch(TIMEOUT);
    assertThat(r.status()).isEqualTo(302);
    assertThat(r.httpsLocation()).isEqualTo("https://127.0.0.1:1/m");
    assertThat(r.body()).isNull();

    RawHttpServer ftp = answering("HTTP/1.1 302 Found\nLocation: ftp://h/m\nContent-Length: 0");
    assertThat(failure(client(ftp)))
        .isEqualTo("redirect to unsupported protocol scheme: ftp://h/m");
    RawHttpServer bad = answering("HTTP/1.1 302 Found\nLocation: http://\nContent-Length: 0");
    assertThat(failure(client(bad))).isEqualTo("malformed redirect Location \"http://\"");
  }

  @Test
  void closeReleasesTheConnection() throws Exception {
    RawHttpServer server = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    Http1Client c = client(server);
    c.fetch(TIMEOUT);
    c.close();
    waitFor(() -> server.clientCloses() == 1);
  }

  private static boolean keep(OutputStream out, byte[] response) throws IOException {
    out.write(response);
    return true;
  }

  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met in 2 s");
      }
      Thread.sleep(5);
    }
  }
}
