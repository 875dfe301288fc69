package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.await;
import static dev.infermon.server.cli.ServeTestSupport.body;
import static dev.infermon.server.cli.ServeTestSupport.remoteWrite;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.infermon.server.runtime.Infermon;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One sample 30 days ahead, scraped from one target and remote-written, must not stop ingestion: it
 * is refused and counted, the other samples of its page and every other target's samples are
 * stored, the targets stay up, and present samples are taken after a restart too. (With the window
 * widened to 1000 days, as before it existed, the other target's samples are refused.)
 */
class FutureSamplesServeTest {
  static final long DAY = 24 * 3_600_000L;

  @TempDir Path tmp;
  private final List<HttpServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
  }

  private int target(Supplier<String> page) throws Exception {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    s.createContext(
        "/metrics",
        ex -> {
          byte[] b = page.get().getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, b.length);
          ex.getResponseBody().write(b);
          ex.close();
        });
    s.start();
    servers.add(s);
    return s.getAddress().getPort();
  }

  private Infermon serve(String yaml) throws Exception {
    Path cfg = tmp.resolve("infermon.yml");
    Files.writeString(cfg, yaml);
    ServeTestSupport.Started st =
        ServeTestSupport.serve(
            "--config.file=" + cfg,
            "--web.listen-address=127.0.0.1:0",
            "--storage.tsdb.path=" + tmp.resolve("data"),
            "--web.enable-remote-write-receiver");
    assertThat(st.infermon()).as(st.err()).isNotNull();
    return st.infermon();
  }

  @Test
  void aSampleFarAheadIsRefusedAndCountedWhileEverythingElseGoesOnAcrossRestarts()
      throws Exception {
    int ahead =
        target(() -> "ahead_metric 1 " + (System.currentTimeMillis() + 30 * DAY) + "\na_ok 1\n");
    int other = target(() -> "b_ok 1\n");
    String yaml =
        "scrape_configs:\n"
            + "  - job_name: t\n"
            + "    scrape_interval: 1s\n"
            + "    static_configs:\n"
            + "      - targets: ['127.0.0.1:"
            + ahead
            + "', '127.0.0.1:"
            + other
            + "']\n";
    Infermon m = serve(yaml);
    try {
      await(
          "three scrapes of both targets stored",
          Duration.ofSeconds(60),
          () ->
              body(m, "/api/v1/query?query=count_over_time(b_ok%5B1m%5D)%20%3E%3D%203")
                      .contains("\"value\"")
                  // the rest of the page with the sample ahead
                  && body(m, "/api/v1/query?query=count_over_time(a_ok%5B1m%5D)%20%3E%3D%203")
                      .contains("\"value\""));
      assertThat(body(m, "/api/v1/query?query=ahead_metric")).contains("\"result\":[]");
      String targets = body(m, "/api/v1/targets");
      assertThat(targets).doesNotContain("\"health\":\"down\"").contains("\"health\":\"up\"");
      // shown on the target that exposed it, with the series; the other target has no warning
      assertThat(targets)
          .containsOnlyOnce("\"lastWarning\":\"1 sample dropped")
          .contains("too far in the future")
          .contains("ahead_metric");
      String metrics = body(m, "/metrics");
      assertThat(metrics)
          .containsPattern(
              "infermon_scrape_samples_rejected_total\\{reason=\"too_far_in_future\","
                  + "scrape_pool=\"t\"} [1-9]")
          .containsPattern(
              "infermon_tsdb_rejected_samples_total\\{reason=\"too_far_in_future\"} [1-9]");

      long now = System.currentTimeMillis();
      HttpResponse<String> r =
          remoteWrite(m, ServeCommandTest.writeRequest("rw_ahead", now + 30 * DAY, 1));
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).contains("too far in the future").contains("rw_ahead");
      assertThat(remoteWrite(m, ServeCommandTest.writeRequest("rw_now", now, 2)).statusCode())
          .isEqualTo(204);
    } finally {
      m.close();
    }
    Infermon again = serve(yaml);
    try {
      long now = System.currentTimeMillis();
      assertThat(remoteWrite(again, ServeCommandTest.writeRequest("rw_now", now, 3)).statusCode())
          .as("present samples are taken after a restart")
          .isEqualTo(204);
    } finally {
      again.close();
    }
  }
}
