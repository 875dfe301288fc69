package dev.infermon.remote.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real remote-write receiver started by a test: Prometheus 2.42 ({@code
 * --web.enable-remote-write-receiver}) or VictoriaMetrics 1.79 single-node, on a free port of
 * 127.0.0.1 with its data in a temporary directory. It can be stopped and started again on the same
 * port and data (an outage), and is always stopped by {@link #close()} and by a shutdown hook.
 */
final class Receiver implements AutoCloseable {
  static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
  static final Path VICTORIA_METRICS = Path.of("/usr/bin/victoria-metrics");

  /** Which product. */
  enum Kind {
    PROMETHEUS("Prometheus 2.42", Receiver.PROMETHEUS, "/api/v1/write", "/-/ready"),
    VICTORIA_METRICS("VictoriaMetrics", Receiver.VICTORIA_METRICS, "/api/v1/write", "/health");

    final String title;
    final Path binary;
    final String writePath;
    final String readyPath;

    Kind(String title, Path binary, String writePath, String readyPath) {
      this.title = title;
      this.binary = binary;
      this.writePath = writePath;
      this.readyPath = readyPath;
    }

    boolean installed() {
      return Files.isExecutable(binary);
    }

    @Override
    public String toString() {
      return title;
    }
  }

  private final Kind kind;
  private final Path dir;
  private final int port;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final Thread hook;
  private volatile Process process;
  private int starts;

  private Receiver(Kind kind, Path dir, int port) {
    this.kind = kind;
    this.dir = dir;
    this.port = port;
    this.hook = new Thread(this::kill, "stop-" + kind.name().toLowerCase());
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Starts a receiver in {@code dir}, waiting (bounded) until it is ready. */
  static Receiver start(Kind kind, Path dir) throws IOException, InterruptedException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Receiver r = new Receiver(kind, dir, port);
    try {
      r.startAgain();
    } catch (IOException | InterruptedException | RuntimeException e) {
      r.close();
      throw e;
    }
    return r;
  }

  Kind kind() {
    return kind;
  }

  /** The base URL of its query API. */
  URI base() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** Its remote-write URL. */
  String writeUrl() {
    return base() + kind.writePath;
  }

  /** Starts the process again on the same port and data (after {@link #stop()}). */
  void startAgain() throws IOException, InterruptedException {
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    Path log = dir.resolve("receiver-" + (starts++) + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(kind.binary.toString());
    if (kind == Kind.PROMETHEUS) {
      Path cfg = dir.resolve("prometheus.yml");
      Files.writeString(cfg, "global:\n  evaluation_interval: 1m\n");
      cmd.addAll(
          List.of(
              "--config.file=" + cfg,
              "--storage.tsdb.path=" + data,
              "--storage.tsdb.retention.time=100y",
              "--web.enable-remote-write-receiver",
              "--web.listen-address=127.0.0.1:" + port));
    } else {
      cmd.addAll(
          List.of(
              "-httpListenAddr=127.0.0.1:" + port,
              "-storageDataPath=" + data,
              "-retentionPeriod=100y",
              "-search.latencyOffset=0",
              "-search.disableCache",
              "-loggerLevel=WARN"));
    }
    process =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < until) {
      if (!process.isAlive()) {
        throw new IOException(kind + " exited at start:\n" + Files.readString(log));
      }
      try {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(base().resolve(kind.readyPath))
                    .timeout(Duration.ofSeconds(2))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new IOException(kind + " not ready within 30 s:\n" + Files.readString(log));
  }

  /** Stops the process gracefully (SIGTERM, bounded), as an operator would. */
  void stop() throws InterruptedException {
    Process p = process;
    if (p == null) {
      return;
    }
    p.destroy();
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    process = null;
  }

  /** Makes what was written visible to queries (VictoriaMetrics buffers recent rows). */
  void flush() throws IOException, InterruptedException {
    if (kind == Kind.VICTORIA_METRICS) {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(base().resolve("/internal/force_flush"))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() / 100 != 2) {
        throw new IOException("force_flush answered " + r.statusCode() + ": " + r.body());
      }
    }
  }

  private void kill() {
    Process p = process;
    if (p != null) {
      p.destroyForcibly();
    }
  }

  @Override
  public void close() {
    try {
      stop();
    } catch (InterruptedException e) {
      kill();
      Thread.currentThread().interrupt();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // already shutting down: the hook runs anyway
      }
    }
  }
}
