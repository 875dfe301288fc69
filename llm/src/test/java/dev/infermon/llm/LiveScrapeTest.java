package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.LiveScrape;
import dev.infermon.llm.inventory.TargetInventory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The on-demand inventory of one endpoint, over HTTP on 127.0.0.1. */
class LiveScrapeTest {
  @Test
  void scrapesDetectsEngineReleaseAndLabels() throws Exception {
    byte[] page;
    try (InputStream in = getClass().getResourceAsStream("/fixtures/vllm-0.11.x-idle.txt")) {
      page = in.readAllBytes();
    }
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/metrics",
        ex -> {
          ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
          ex.sendResponseHeaders(200, page.length);
          try (OutputStream out = ex.getResponseBody()) {
            out.write(page);
          }
        });
    server.start();
    try {
      LiveScrape live = new LiveScrape(Catalog.builtIn(), Duration.ofSeconds(5));
      URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
      TargetInventory t = live.scrape(url);
      assertThat(t.engine()).isEqualTo("vllm");
      assertThat(t.detection().versions().toString()).isEqualTo("0.11");
      assertThat(t.families().get("vllm:num_requests_running").labelNames())
          .containsExactlyInAnyOrder("engine", "model_name");
      assertThat(t.families().get("vllm:time_to_first_token_seconds").bounds()).hasSize(22);
      assertThatThrownBy(
              () ->
                  live.scrape(
                      URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/nope")))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("404");
    } finally {
      server.stop(0);
    }
  }
}
