package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.server.Main;
import dev.infermon.server.runtime.Infermon;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import picocli.CommandLine;

/** Runs {@code infermon serve} in-process, hands back the running server, and asks and polls it. */
final class ServeTestSupport {
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private ServeTestSupport() {}

  /** The running server, or the exit code and stderr when it did not start. */
  record Started(Infermon infermon, int exitCode, String err) {}

  static synchronized Started serve(String... args) {
    AtomicReference<Infermon> ref = new AtomicReference<>();
    ServeCommand.onStarted = ref::set;
    try {
      CommandLine cl = new CommandLine(new Main());
      StringWriter err = new StringWriter();
      cl.setErr(new PrintWriter(err));
      String[] all = new String[args.length + 1];
      all[0] = "serve";
      System.arraycopy(args, 0, all, 1, args.length);
      int code = cl.execute(all);
      return new Started(ref.get(), code, err.toString());
    } finally {
      ServeCommand.onStarted = null;
    }
  }

  /**
   * {@code infermon serve} on a free loopback port with its TSDB in {@code dir/data} and the
   * remote-write receiver on, scraping nothing ({@code global.scrape_interval} set to {@code
   * interval}, e.g. "15s"): the samples a test needs arrive by {@link #remoteWrite}. Fails the test
   * when serve does not start.
   */
  static Infermon remoteWriteReceiver(Path dir, String interval) throws IOException {
    Path cfg = dir.resolve("infermon.yml");
    Files.writeString(cfg, "global:\n  scrape_interval: " + interval + "\n");
    Started s =
        serve(
            "--config.file=" + cfg,
            "--web.listen-address=127.0.0.1:0",
            "--storage.tsdb.path=" + dir.resolve("data"),
            "--web.enable-remote-write-receiver");
    if (s.infermon() == null) {
      throw new AssertionError("infermon serve did not start: " + s.err());
    }
    return s.infermon();
  }

  static HttpResponse<String> get(Infermon m, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port() + path))
            .timeout(Duration.ofSeconds(30))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The body of a GET, for polling in {@link #await}; a failed request fails the test. */
  static String body(Infermon m, String path) {
    try {
      return get(m, path).body();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Polls {@code cond} every 100 ms; fails the test, naming {@code what}, after {@code timeout}.
   */
  static void await(String what, Duration timeout, BooleanSupplier cond)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!cond.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /** A remote-write 1.0 request with the headers its specification requires. */
  static HttpResponse<String> remoteWrite(Infermon m, byte[] snappyBody) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port() + "/api/v1/write"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/x-protobuf")
            .header("Content-Encoding", "snappy")
            .header("X-Prometheus-Remote-Write-Version", "0.1.0")
            .POST(HttpRequest.BodyPublishers.ofByteArray(snappyBody))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> post(Infermon m, String path, byte[] body, String type)
      throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
