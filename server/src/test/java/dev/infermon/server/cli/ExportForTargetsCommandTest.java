package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.infermon.server.Main;
import dev.infermon.simulator.testing.Captures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code infermon export --endpoint}: the export generated for the targets scraped, here the real
 * SGLang 0.4.1 page served on loopback, reads only what that release exposes, so {@code infermon
 * lint} against the same endpoint finds neither an error nor a warning in it. The default export
 * (every release) gets warnings there: its success-rate and preemption queries read counters SGLang
 * added in 0.4.3, 0.4.10 and 0.5.9.
 */
class ExportForTargetsCommandTest {
  static final String CAPTURE = "01_v0.4.1_docs_single_request.prom";

  @TempDir Path dir;
  private HttpServer server;
  private String url;

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new PrintWriter(new PrintStream(out, true, StandardCharsets.UTF_8), true));
    cl.setErr(new PrintWriter(new PrintStream(err, true, StandardCharsets.UTF_8), true));
    int code = cl.execute(args);
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @BeforeEach
  void servePage() throws Exception {
    byte[] page = Captures.get(CAPTURE).bytes();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/metrics",
        x -> {
          x.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
          x.sendResponseHeaders(200, page.length);
          x.getResponseBody().write(page);
          x.close();
        });
    byte[] other = "# TYPE app_requests_total counter\napp_requests_total 3\n".getBytes();
    server.createContext(
        "/app",
        x -> {
          x.sendResponseHeaders(200, other.length);
          x.getResponseBody().write(other);
          x.close();
        });
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort() + "/metrics";
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void theExportForTheTargetsLintsCleanAgainstThem() throws Exception {
    for (String what : new String[] {"rules", "grafana", "prometheusrule"}) {
      Path file = dir.resolve(what + (what.equals("grafana") ? ".json" : ".yml"));
      Run export = run("export", what, "--endpoint", url, "-o", file.toString());
      assertThat(export.code()).as(export.err()).isZero();
      String text = Files.readString(file);
      assertThat(text)
          .contains("sglang:time_to_first_token_seconds_bucket")
          .doesNotContain("sglang:num_aborted_requests_total", "sglang_", "vllm:", "smg_");
      Run lint = run("lint", "--endpoint", url, file.toString());
      assertThat(lint.code()).as(lint.out() + lint.err()).isZero();
      assertThat(lint.out()).as(what).containsPattern("^0 errors, 0 warnings, ");
    }
  }

  @Test
  void theDefaultExportGetsWarningsThere() throws Exception {
    Path file = dir.resolve("default.yml");
    assertThat(run("export", "rules", "--engines", "sglang", "-o", file.toString()).code())
        .isZero();
    Run lint = run("lint", "--endpoint", url, file.toString());
    assertThat(lint.out())
        .contains("sglang:num_aborted_requests_total was added in SGLang 0.4.10")
        .doesNotStartWith("0 errors, 0 warnings");
  }

  @Test
  void anEndpointThatCannotBeScrapedWritesNothing() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    String gone = "http://127.0.0.1:" + port + "/metrics";
    Path file = dir.resolve("rules.yml");
    Run r = run("export", "rules", "--endpoint", url, "--endpoint", gone, "-o", file.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().lines().toList())
        .singleElement()
        .asString()
        .startsWith("infermon export: cannot scrape " + gone + ": ")
        .endsWith("; nothing written");
    assertThat(file).doesNotExist();
  }

  @Test
  void endpointsOfNoKnownEngineHaveNothingToExport() {
    String app = url.replace("/metrics", "/app");
    Run r = run("export", "grafana", "--endpoint", app);
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("infermon export: no target is of an engine infermon knows (1 targets read)");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void endpointsAndEnginesAreNotGivenTogether() {
    Run r = run("export", "rules", "--endpoint", url, "--engines", "vllm");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("give --endpoint or --engines/--spellings, not both");
  }
}
