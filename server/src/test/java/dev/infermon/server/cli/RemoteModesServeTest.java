package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.infermon.server.runtime.Infermon;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.Snappy;

/**
 * {@code infermon serve} beyond one machine, in-process against stand-ins on 127.0.0.1: agent mode
 * scrapes and remote-writes without a local TSDB; remote mode answers the query API from a
 * Prometheus-compatible API. (The real Prometheus and VictoriaMetrics are exercised in the remote
 * module's tests.)
 */
class RemoteModesServeTest {
  @TempDir Path tmp;
  private final CopyOnWriteArrayList<HttpServer> servers = new CopyOnWriteArrayList<>();
  private Infermon infermon;

  @AfterEach
  void stop() {
    if (infermon != null) {
      infermon.close();
    }
    for (HttpServer s : servers) {
      s.stop(0);
    }
  }

  private HttpServer server() throws Exception {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    servers.add(s);
    return s;
  }

  private static String url(HttpServer s, String path) {
    return "http://127.0.0.1:" + s.getAddress().getPort() + path;
  }

  private Infermon serve(String yaml) throws Exception {
    Path cfg = tmp.resolve("infermon.yml");
    Files.writeString(cfg, yaml);
    ServeTestSupport.Started st =
        ServeTestSupport.serve(
            "--config.file=" + cfg,
            "--web.listen-address=127.0.0.1:0",
            "--storage.tsdb.path=" + tmp.resolve("data"));
    assertThat(st.infermon()).as(st.err()).isNotNull();
    infermon = st.infermon();
    return infermon;
  }

  @Test
  void agentModeScrapesAndRemoteWritesWithoutALocalTsdb() throws Exception {
    HttpServer target = server();
    target.createContext(
        "/metrics",
        ex -> {
          byte[] b =
              "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name=\"m\"} 3\n"
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, b.length);
          ex.getResponseBody().write(b);
          ex.close();
        });
    target.start();
    HttpServer receiver = server();
    CopyOnWriteArrayList<String> bodies = new CopyOnWriteArrayList<>();
    receiver.createContext(
        "/api/v1/write",
        ex -> {
          bodies.add(
              new String(
                  Snappy.uncompress(ex.getRequestBody().readAllBytes()),
                  StandardCharsets.ISO_8859_1));
          ex.sendResponseHeaders(204, -1);
          ex.close();
        });
    receiver.start();

    Infermon m =
        serve(
            "global:\n"
                + "  external_labels: {cluster: eu-1}\n"
                + "storage:\n  mode: agent\n"
                + "remote_write:\n"
                + "  - url: "
                + url(receiver, "/api/v1/write")
                + "\n    queue_config: {batch_send_deadline: 100ms}\n"
                + "scrape_configs:\n"
                + "  - job_name: vllm\n"
                + "    scrape_interval: 1s\n"
                + "    static_configs:\n"
                + "      - targets: ['127.0.0.1:"
                + target.getAddress().getPort()
                + "']\n");

    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < until
        && bodies.stream().noneMatch(b -> b.contains("vllm:num_requests_running"))) {
      Thread.sleep(100);
    }
    String all = String.join("", bodies);
    assertThat(all).contains("vllm:num_requests_running", "up", "cluster", "eu-1");
    assertThat(Files.exists(tmp.resolve("data").resolve("wal"))).as("no local TSDB").isFalse();
    // the queue counts a batch as sent once the receiver has answered, after the receiver saw it
    java.util.regex.Pattern sent =
        java.util.regex.Pattern.compile(
            "infermon_remote_storage_samples_total\\{remote_name=\"[^\"]+\"\\} [1-9]");
    ServeTestSupport.await(
        "samples counted as sent",
        java.time.Duration.ofSeconds(20),
        () -> sent.matcher(ServeTestSupport.body(m, "/metrics")).find());
    assertThat(ServeTestSupport.get(m, "/metrics").body()).containsPattern(sent);
  }

  @Test
  void remoteModeAnswersTheQueryApiFromTheRemoteCluster() throws Exception {
    HttpServer api = server();
    api.createContext(
        "/prometheus/api/v1/query",
        ex -> {
          byte[] b =
              ("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                      + "{\"metric\":{\"__name__\":\"up\",\"job\":\"from-the-cluster\"},"
                      + "\"value\":[1700000000,\"1\"]}]}}")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, b.length);
          ex.getResponseBody().write(b);
          ex.close();
        });
    api.start();

    Infermon m =
        serve(
            "storage:\n  mode: remote\n  remote:\n    query_url: "
                + url(api, "/prometheus")
                + "\n");

    String body = ServeTestSupport.get(m, "/api/v1/query?query=up&time=1700000000").body();
    assertThat(body).contains("\"job\":\"from-the-cluster\"").contains("\"1\"");
  }
}
