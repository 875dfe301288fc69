package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.model.labels.Labels;
import dev.infermon.scrape.http1.RawHttpServer;
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
 * {@link Http1Scraper} against raw-socket servers on 127.0.0.1: the fetcher {@link HttpScrapers}
 * gives a plain-HTTP target (the stale-connection retry through it), Prometheus's request headers,
 * the client's errors and non-200 statuses as the target's last error, redirects to https handed to
 * the HTTPS fetcher, and the close hook of a stopped loop. The client's own connection handling and
 * framing: {@code http1.Http1ClientTest}, {@code http1.Http1ResponseTest}.
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

  /** Prometheus's default: no body_size_limit is no limit (it once meant 64 MiB here). */
  @Test
  void anUnsetBodySizeLimitIsNoLimit() throws Exception {
    byte[] page =
        ("# padding\n".repeat((65 << 20) / 10) + "m 1\n").getBytes(StandardCharsets.US_ASCII);
    byte[] gz = TestTargets.gzip(page); // ~200 KB on the wire
    RawHttpServer server =
        server(
            (r, out) ->
                keep(
                    out,
                    RawHttpServer.response(
                        "HTTP/1.1 200 OK\nContent-Encoding: gzip\nContent-Length: " + gz.length,
                        gz)));
    Scraper s = new HttpScrapers(CFG, Runnable::run).create(target(server), CFG);
    closing.add(s::close);
    assertThat(CFG.bodySizeLimit().bytes()).isZero();
    assertThat(s.fetch(TIMEOUT).length()).isEqualTo(page.length);
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
  void requestCarriesPrometheusHeadersAndTheAuthOfEachFetch() throws Exception {
    RawHttpServer server = server((r, out) -> keep(out, RawHttpServer.ok(PAGE)));
    String[] token = {"one"};
    Http1Scraper s =
        scraper(server.url("/metrics"), true, () -> Map.of("Authorization", "Bearer " + token[0]));
    s.fetch(TIMEOUT);
    token[0] = "two"; // a rotated credential file
    s.fetch(Duration.ofMillis(1500));
    RawHttpServer.Request first = server.requests().get(0);
    assertThat(first.header("accept")).isEqualTo(HttpScraper.ACCEPT_HEADER);
    assertThat(first.header("user-agent")).isEqualTo(HttpScraper.USER_AGENT);
    assertThat(first.header("accept-encoding")).isEqualTo("gzip");
    assertThat(first.header("x-prometheus-scrape-timeout-seconds")).isEqualTo("2");
    assertThat(first.header("authorization")).isEqualTo("Bearer one");
    assertThat(server.requests().get(1).header("authorization")).isEqualTo("Bearer two");
  }

  @Test
  void clientErrorsAreTheTargetsLastError() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    assertThat(failure(scraper("http://127.0.0.1:" + port + "/m", true, Map::of)))
        .startsWith("ConnectException");
    RawHttpServer slow =
        server(
            (r, out) -> {
              out.write("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII));
              out.flush();
              sleep(1000);
              return false;
            });
    assertThatThrownBy(() -> scraper(slow).fetch(Duration.ofMillis(300)))
        .hasMessage("scrape timed out after 0.3s");
    RawHttpServer malformed = answering("ICY 200 OK");
    assertThat(failure(scraper(malformed))).isEqualTo("malformed HTTP status line \"ICY 200 OK\"");
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

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
