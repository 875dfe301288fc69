package dev.infermon.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.promql.engine.EngineOptions;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Routes that change state refuse browser requests from other sites, with authentication off;
 * same-origin browser requests, and clients that are no browser (no {@code Sec-Fetch-Site}, no
 * {@code Origin}: curl, Prometheus, remote-write senders) pass; reads are not guarded.
 */
class CrossSiteTest {
  @TempDir static Path dir;
  static TestServer server;
  static final AtomicInteger reloads = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServer.start(
            dir,
            EngineOptions.DEFAULTS,
            o -> o.withLifecycleApi(true).withRemoteWriteReceiver(true),
            b -> b.reloader(reloads::incrementAndGet));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** {@code SELF} stands for the server's own origin. */
  static Stream<Arguments> requests() {
    return Stream.of(
        // path, Sec-Fetch-Site, Origin, status
        Arguments.of("/-/reload", "cross-site", null, 403),
        Arguments.of("/-/reload", "same-site", null, 403),
        Arguments.of("/-/reload", null, "http://evil.example", 403),
        Arguments.of("/-/reload", null, "null", 403),
        Arguments.of("/-/reload", "cross-site", "SELF", 403),
        Arguments.of("/-/reload", "same-origin", "SELF", 200),
        Arguments.of("/-/reload", "none", null, 200),
        Arguments.of("/-/reload", null, "SELF", 200),
        Arguments.of("/-/reload", null, null, 200),
        Arguments.of("/api/v1/write", "cross-site", "http://evil.example", 403),
        Arguments.of("/api/v1/write", null, "http://evil.example", 403),
        // not a browser: reaches the receiver, which refuses a form's Content-Type (415)
        Arguments.of("/api/v1/write", null, null, 415),
        // a query changes nothing: Prometheus answers it from anywhere, so does infermon
        Arguments.of("/api/v1/query?query=1", "cross-site", "http://evil.example", 200));
  }

  @ParameterizedTest(name = "POST {0} Sec-Fetch-Site={1} Origin={2} -> {3}")
  @MethodSource("requests")
  void crossSiteBrowserRequestsToRoutesThatChangeStateAreRefused(
      String path, String secFetchSite, String origin, int status) throws Exception {
    int before = reloads.get();
    HttpRequest.Builder b =
        HttpRequest.newBuilder(server.uri(path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.noBody());
    if (secFetchSite != null) {
      b.header("Sec-Fetch-Site", secFetchSite);
    }
    if (origin != null) {
      b.header(
          "Origin", origin.equals("SELF") ? "http://127.0.0.1:" + server.server.port() : origin);
    }
    HttpResponse<String> r = server.client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    if (status == 403) {
      assertThat(r.body()).startsWith("cross-site request refused");
      assertThat(reloads.get()).as("nothing reloaded").isEqualTo(before);
    } else if (path.equals("/-/reload")) {
      assertThat(reloads.get()).isEqualTo(before + 1);
    }
  }
}
