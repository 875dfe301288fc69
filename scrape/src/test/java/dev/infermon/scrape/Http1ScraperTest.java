package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.model.labels.Labels;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Http1Scraper}'s connection handling against raw-socket servers on 127.0.0.1: keep-alive
 * reuse, {@code Connection: close}, the stale-connection retry (a target that closes idle
 * connections, as uvicorn does) and where it must not happen, redirects, request headers, and the
 * close hook. Framing and malformed responses: {@link Http1ResponseTest}.
 */
class Http1ScraperTest {
  private static final String PAGE = "a_total 1\n";
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final ScrapeConfig CFG =
      Configs.one(
          """
          - job_name: test
            scrape_interval: 5s
            scrape_timeout: 2s
          """);

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

  private Http1Scraper scraper(String url, boolean follow, Supplier<Map<String, String>> headers) {
    Http1Scraper s = new Http1Scraper(url, 64 << 10, true, follow, headers, null);
    closing.add(s::close);
    return s;
  }

  private Http1Scraper scraper(RawHttpServer server) {
    return scraper(server.url("/metrics"), true, Map::of);
  }

  private static String text(Scraper.Page p) {
    return new String(p.body(), 0, p.length(), StandardCharsets.UTF_8);
  }

  private static String failure(Scraper s) {
    try {
      s.fetch(TIMEOUT);
    } catch (Scraper.ScrapeFailure f) {
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
    Scraper s = new HttpScrapers(CFG, Runnable::run).create(target(server), CFG);
    closing.add(s::close);
    for (int i = 0; i < 3; i++) {
      assertThat(text(s.fetch(TIMEOUT))).isEqualTo(PAGE);
      Thread.sleep(50); // let the server's close arrive while the connection is idle
    }
    assertThat(server.connections()).isEqualTo(3);
  }

  private static Target target(RawHttpServer server) {
    String address = "127.0.0.1:" + server.port();
    return TargetBuilder.build(
            CFG.jobName(),
            Labels.of(DiscoveryLabels.ADDRESS, address, DiscoveryLabels.METRICS_PATH, "/m"),
            CFG)
        .target();
  }

  @Test
  void refusedConnectionFailsWithoutRetryingForever() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Http1Scraper s = scraper("http://127.0.0.1:" + port + "/m", true, Map::of);
    long t0 = System.nanoTime();
    assertThat(failure(s)).contains("ConnectException");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(TIMEOUT);
  }

  @Test
  void keepAliveCarriesEveryScrapeOnOneConnection() throws Exception {
    RawHttpServer server = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    Http1Scraper s = scraper(server);
    for (int i = 0; i < 5; i++) {
      assertThat(text(s.fetch(TIMEOUT))).isEqualTo(PAGE);
    }
    assertThat(server.requests()).hasSize(5);
    assertThat(server.connections()).isEqualTo(1);
  }

  @Test
  void requestCarriesPrometheusHeadersAndTheSuppliedOnesPerFetch() throws Exception {
    RawHttpServer server = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    String[] token = {"one"};
    Http1Scraper s =
        scraper(
            server.url("/metrics?x=1&y=%20"),
            true,
            () -> Map.of("Authorization", "Bearer " + token[0]));
    s.fetch(TIMEOUT);
    token[0] = "two"; // a rotated credential file
    s.fetch(Duration.ofMillis(1500));
    RawHttpServer.Request first = server.requests().get(0);
    RawHttpServer.Request second = server.requests().get(1);
    assertThat(first.head()).startsWith("GET /metrics?x=1&y=%20 HTTP/1.1\r\n");
    assertThat(first.header("host")).isEqualTo("127.0.0.1:" + server.port());
    assertThat(first.header("accept")).isEqualTo(HttpScraper.ACCEPT_HEADER);
    assertThat(first.header("user-agent")).isEqualTo(HttpScraper.USER_AGENT);
    assertThat(first.header("accept-encoding")).isEqualTo("gzip");
    assertThat(first.header("x-prometheus-scrape-timeout-seconds")).isEqualTo("2");
    assertThat(first.header("authorization")).isEqualTo("Bearer one");
    assertThat(second.header("authorization")).isEqualTo("Bearer two");
    assertThat(second.header("x-prometheus-scrape-timeout-seconds")).isEqualTo("1.5");
  }

  @Test
  void aConfiguredHeaderReplacesOursAndALineBreakInOneIsRefusedWithoutShowingIt() throws Exception {
    RawHttpServer server = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    scraper(server.url("/m"), true, () -> Map.of("accept", "text/plain")).fetch(TIMEOUT);
    assertThat(server.requests().get(0).head()).containsOnlyOnce("ccept: ");
    assertThat(server.requests().get(0).header("accept")).isEqualTo("text/plain");

    Http1Scraper bad =
        scraper(server.url("/m"), true, () -> Map.of("Authorization", "secret\r\nX: y"));
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
      Http1Scraper s = scraper(server);
      for (int i = 0; i < 3; i++) {
        assertThat(text(s.fetch(TIMEOUT))).isEqualTo(PAGE);
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
    Http1Scraper s = scraper(server);
    s.fetch(TIMEOUT);
    assertThat(failure(s)).contains("EOFException: connection closed in the response head");
    assertThat(server.connections()).isEqualTo(1);
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void theStaleConnectionRetryHappensOnceOnly() throws Exception {
    RawHttpServer server =
        server(
            (r, out) -> r.connection() == 1 && r.index() == 1 && keep(out, RawHttpServer.ok(PAGE)));
    Http1Scraper s = scraper(server);
    s.fetch(TIMEOUT);
    assertThat(failure(s)).isEqualTo("EOFException: connection closed");
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
    Http1Scraper s = scraper(server);
    assertThat(text(s.fetch(TIMEOUT))).isEqualTo(PAGE);
    assertThat(text(s.fetch(TIMEOUT))).isEqualTo(PAGE);
    assertThat(server.requests())
        .extracting(RawHttpServer.Request::path)
        .containsExactly("/metrics", "/metrics/", "/metrics", "/metrics/");
    assertThat(server.requests().get(1).header("accept")).isEqualTo(HttpScraper.ACCEPT_HEADER);
    assertThat(server.connections()).isEqualTo(1);
  }

  @Test
  void redirectsAreNotFollowedWhenDisabled() throws Exception {
    RawHttpServer server = answering("HTTP/1.1 302 Found\nLocation: /x\nContent-Length: 0");
    assertThat(failure(scraper(server.url("/m"), false, Map::of)))
        .isEqualTo("server returned HTTP status 302 Found");
    assertThat(server.requests()).hasSize(1);
    // Followed or not, a 3xx without a Location is the response, as in Go's client.
    RawHttpServer bare = answering("HTTP/1.1 307 X\nContent-Length: 0");
    assertThat(failure(scraper(bare)))
        .isEqualTo("server returned HTTP status " + HttpScraper.status(307));
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
    assertThat(failure(scraper(server))).isEqualTo("stopped after 10 redirects");
    assertThat(server.requests()).hasSize(11);
    assertThat(server.connections()).isEqualTo(1);
  }

  @Test
  void aRedirectToAnotherServerUsesAConnectionForThatFetchOnly() throws Exception {
    RawHttpServer elsewhere = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    RawHttpServer home =
        answering(
            "HTTP/1.1 302 Found\nLocation: " + elsewhere.url("/real") + "\nContent-Length: 0");
    Http1Scraper s = scraper(home);
    assertThat(text(s.fetch(TIMEOUT))).isEqualTo(PAGE);
    assertThat(text(s.fetch(TIMEOUT))).isEqualTo(PAGE);
    assertThat(home.connections()).isEqualTo(1);
    assertThat(elsewhere.connections()).isEqualTo(2);
    assertThat(elsewhere.requests().get(0).header("host"))
        .isEqualTo("127.0.0.1:" + elsewhere.port());
    waitFor(() -> elsewhere.clientCloses() == 2);
  }

  @Test
  void aRedirectToHttpsGoesToTheHttpsFetcherOrFailsClearly() throws Exception {
    RawHttpServer server =
        answering("HTTP/1.1 302 Found\nLocation: https://127.0.0.1:1/m\nContent-Length: 0");
    assertThat(failure(scraper(server)))
        .isEqualTo(
            "redirect to https is not supported for plain-HTTP targets: https://127.0.0.1:1/m");
    List<String> handed = new ArrayList<>();
    Http1Scraper s =
        new Http1Scraper(
            server.url("/m"),
            1024,
            true,
            true,
            Map::of,
            url -> {
              handed.add(url);
              return timeout -> new Scraper.Page(new byte[0], 0, null);
            });
    closing.add(s::close);
    assertThat(s.fetch(TIMEOUT).length()).isZero();
    assertThat(handed).containsExactly("https://127.0.0.1:1/m");
  }

  @Test
  void closeReleasesTheConnectionAndStoppingALoopCloses() throws Exception {
    RawHttpServer server = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    Http1Scraper s = scraper(server);
    s.fetch(TIMEOUT);
    s.close();
    waitFor(() -> server.clientCloses() == 1);

    Target t = target(server);
    Scraper fetcher = new HttpScrapers(CFG, Runnable::run).create(t, CFG);
    ScrapeLoop loop =
        new ScrapeLoop(
            t, fetcher, new RecordingStorage(), PoolSettings.of(CFG), ScrapeMetrics.NOOP);
    loop.scrapeOnce();
    assertThat(t.lastError()).isEmpty();
    loop.stop(true);
    waitFor(() -> server.clientCloses() == 2);
  }

  private static boolean keep(OutputStream out, byte[] response) throws IOException {
    out.write(response);
    return true;
  }

  private static void waitFor(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met in 2 s");
      }
      Thread.sleep(5);
    }
  }
}
