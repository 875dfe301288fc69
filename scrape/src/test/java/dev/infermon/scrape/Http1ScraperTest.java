package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.model.labels.Labels;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The blocking fetcher against a raw socket server that behaves like uvicorn (vLLM's server): it
 * answers with keep-alive and then closes the idle connection without saying so. The next scrape
 * must not fail on the dead connection: it is retried once on a fresh one.
 */
class BlockingHttpScraperTest {
  private static final String PAGE = "a_total 1\n";
  private static final ScrapeConfig CFG =
      Configs.one(
          """
          - job_name: test
            scrape_interval: 5s
            scrape_timeout: 2s
          """);

  private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1);
  private final AtomicInteger connections = new AtomicInteger();
  private ServerSocket server;
  private Thread acceptor;
  private HttpScrapers scrapers;

  @AfterEach
  void close() throws IOException {
    if (scrapers != null) {
      scrapers.close();
    }
    scheduler.shutdownNow();
    if (server != null) {
      server.close();
    }
    if (acceptor != null) {
      acceptor.interrupt();
    }
  }

  /** One response per connection, keep-alive announced, then the connection is dropped. */
  private void startClosingServer() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor =
        new Thread(
            () -> {
              while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                  connections.incrementAndGet();
                  readRequestHead(s.getInputStream());
                  byte[] body = PAGE.getBytes(StandardCharsets.US_ASCII);
                  OutputStream out = s.getOutputStream();
                  out.write(
                      ("HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n"
                              + "Content-Length: "
                              + body.length
                              + "\r\n\r\n")
                          .getBytes(StandardCharsets.US_ASCII));
                  out.write(body);
                  out.flush();
                } catch (IOException e) {
                  // closed: the test is over
                }
              }
            },
            "closing-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private static void readRequestHead(InputStream in) throws IOException {
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("request cut short");
      }
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
  }

  private Scraper fetcher() {
    String address = "127.0.0.1:" + server.getLocalPort();
    Target t =
        TargetBuilder.build(
                CFG.jobName(),
                Labels.of(DiscoveryLabels.ADDRESS, address, DiscoveryLabels.METRICS_PATH, "/m"),
                CFG)
            .target();
    scrapers = new HttpScrapers(CFG, scheduler, Runnable::run);
    return scrapers.create(t, CFG);
  }

  @Test
  void connectionClosedWhileIdleIsRetriedOnceOnAFreshOne() throws Exception {
    startClosingServer();
    Scraper s = fetcher();
    for (int i = 0; i < 3; i++) {
      Scraper.Page p = s.fetch(Duration.ofSeconds(2));
      assertThat(new String(p.body(), 0, p.length(), StandardCharsets.US_ASCII)).isEqualTo(PAGE);
      Thread.sleep(50); // let the server's close arrive while the connection is idle
    }
    assertThat(connections.get()).isEqualTo(3);
  }

  @Test
  void refusedConnectionFailsWithoutRetryingForever() throws Exception {
    startClosingServer();
    Scraper s = fetcher();
    server.close();
    long t0 = System.nanoTime();
    try {
      s.fetch(Duration.ofSeconds(2));
      throw new AssertionError("fetch should fail");
    } catch (Scraper.ScrapeFailure e) {
      assertThat(e.getMessage()).contains("Connect");
    }
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));
  }
}
