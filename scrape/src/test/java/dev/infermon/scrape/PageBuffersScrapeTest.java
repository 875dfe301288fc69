package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.model.labels.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Blocking scrapes reuse their thread's arrays: pages of changing sizes and encodings fetched one
 * after another on one thread must each come back whole and exact, and a target's body limit must
 * hold even when the thread's array is already larger than it.
 */
class PageBuffersScrapeTest {
  private static final ScrapeConfig CFG =
      Configs.one("- job_name: test\n  scrape_interval: 5s\n  scrape_timeout: 2s\n");
  private static final ScrapeConfig LIMITED =
      Configs.one(
          "- job_name: limited\n  scrape_interval: 5s\n  scrape_timeout: 2s\n"
              + "  body_size_limit: 2KB\n");

  private final List<Scraper> created = new ArrayList<>();
  private HttpServer server;

  private static byte[] page(int lines, String seed) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      sb.append("m_total{pod=\"").append(seed).append('-').append(i).append("\"} ").append(i);
      sb.append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] gzip(byte[] b) throws IOException {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
      gz.write(b);
    }
    return bos.toByteArray();
  }

  private static final byte[] BIG = page(6000, "big"); // ~150 KB
  private static final byte[] SMALL = page(3, "small");
  private static final byte[] MEDIUM = page(800, "medium");

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    serve("/big", BIG, false);
    serve("/small", SMALL, false);
    serve("/gz-big", BIG, true);
    serve("/gz-medium", MEDIUM, true);
    server.start();
  }

  private void serve(String path, byte[] body, boolean gz) {
    server.createContext(
        path,
        ex -> {
          byte[] out = gz ? gzip(body) : body;
          if (gz) {
            ex.getResponseHeaders().set("Content-Encoding", "gzip");
          }
          ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
          ex.sendResponseHeaders(200, out.length);
          try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
          }
        });
  }

  @AfterEach
  void stop() {
    created.forEach(Scraper::close);
    server.stop(0);
  }

  private Scraper fetcher(ScrapeConfig cfg, String path) {
    String address = "127.0.0.1:" + server.getAddress().getPort();
    Target t =
        TargetBuilder.build(
                cfg.jobName(),
                Labels.of(DiscoveryLabels.ADDRESS, address, DiscoveryLabels.METRICS_PATH, path),
                cfg)
            .target();
    Scraper s = new HttpScrapers(cfg, Runnable::run).create(t, cfg);
    created.add(s);
    return s;
  }

  private static byte[] fetch(Scraper s) throws Scraper.ScrapeFailure {
    Scraper.Page p = s.fetch(Duration.ofSeconds(2));
    return Arrays.copyOf(p.body(), p.length());
  }

  @Test
  void pagesOfChangingSizesAndEncodingsComeBackExactOnOneThread() throws Exception {
    Scraper big = fetcher(CFG, "/big");
    Scraper small = fetcher(CFG, "/small");
    Scraper gzBig = fetcher(CFG, "/gz-big");
    Scraper gzMedium = fetcher(CFG, "/gz-medium");
    for (int round = 0; round < 2; round++) {
      assertThat(fetch(small)).isEqualTo(SMALL);
      assertThat(fetch(big)).isEqualTo(BIG);
      assertThat(fetch(small)).as("a short page after a long one").isEqualTo(SMALL);
      assertThat(fetch(gzMedium)).isEqualTo(MEDIUM);
      assertThat(fetch(gzBig)).isEqualTo(BIG);
      assertThat(fetch(gzMedium)).as("a shorter inflated page after a longer").isEqualTo(MEDIUM);
    }
  }

  @Test
  void aTargetsLimitHoldsWhenTheThreadsArrayIsAlreadyLarger() throws Exception {
    assertThat(fetch(fetcher(CFG, "/big"))).isEqualTo(BIG); // the thread's arrays grow past 2 KB
    assertThat(fetch(fetcher(CFG, "/gz-big"))).isEqualTo(BIG);

    assertThatThrownBy(() -> fetch(fetcher(LIMITED, "/big")))
        .isInstanceOf(Scraper.ScrapeFailure.class)
        .hasMessageContaining("body size limit exceeded");
    assertThatThrownBy(() -> fetch(fetcher(LIMITED, "/gz-medium")))
        .isInstanceOf(Scraper.ScrapeFailure.class)
        .hasMessageContaining("body size limit exceeded");
    assertThat(fetch(fetcher(LIMITED, "/small"))).isEqualTo(SMALL);
  }
}
