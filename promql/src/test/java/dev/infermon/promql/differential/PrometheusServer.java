package dev.infermon.promql.differential;

import dev.infermon.model.labels.Labels;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus 2.42 ({@code /usr/bin/prometheus}) run by a test: backfilled with {@code
 * promtool}, started on 127.0.0.1 with a free port and a temporary data directory, queried over
 * HTTP, and always stopped ({@link #close()}, and a shutdown hook should the JVM exit first). Every
 * wait is bounded. Not thread-safe.
 */
final class PrometheusServer implements AutoCloseable {
  static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
  static final Path PROMTOOL = Path.of("/usr/bin/promtool");

  private final Process process;
  private final Thread hook;
  private final Path log;
  private final URI base;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private PrometheusServer(Process process, Thread hook, Path log, int port) {
    this.process = process;
    this.hook = hook;
    this.log = log;
    this.base = URI.create("http://127.0.0.1:" + port);
  }

  /** Why the binaries cannot be used, or null when both are there. */
  static String unavailableReason() {
    for (Path p : List.of(PROMETHEUS, PROMTOOL)) {
      if (!Files.isExecutable(p)) {
        return p + " is absent (Debian package prometheus); the differential test needs it";
      }
    }
    return null;
  }

  /** {@code promtool tsdb create-blocks-from openmetrics <file> <dir>}. */
  static void backfill(Path openMetrics, Path dataDir, Duration timeout)
      throws IOException, InterruptedException {
    Path out = dataDir.resolveSibling("promtool.log");
    Process p =
        new ProcessBuilder(
                PROMTOOL.toString(),
                "tsdb",
                "create-blocks-from",
                "openmetrics",
                openMetrics.toString(),
                dataDir.toString())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      throw new IOException("promtool backfill did not finish in " + timeout);
    }
    if (p.exitValue() != 0) {
      throw new IOException("promtool backfill failed:\n" + Files.readString(out));
    }
  }

  /**
   * Starts Prometheus on {@code dataDir} with lookback 5m, retention 100y and the remote-write
   * receiver, and waits for {@code /-/ready}.
   */
  static PrometheusServer start(Path dataDir, Path workDir, Duration readyTimeout)
      throws IOException, InterruptedException {
    Path config = workDir.resolve("prometheus.yml");
    Files.writeString(config, "global:\n  evaluation_interval: 1m\n");
    Path log = workDir.resolve("prometheus.log");
    int port = freePort();
    Process p =
        new ProcessBuilder(
                PROMETHEUS.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dataDir,
                "--storage.tsdb.retention.time=100y",
                "--query.lookback-delta=5m",
                "--web.enable-remote-write-receiver",
                "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    Thread hook = new Thread(p::destroyForcibly, "stop-prometheus");
    Runtime.getRuntime().addShutdownHook(hook);
    PrometheusServer server = new PrometheusServer(p, hook, log, port);
    try {
      server.awaitReady(readyTimeout);
      return server;
    } catch (IOException | InterruptedException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  private void awaitReady(Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    HttpRequest ready =
        HttpRequest.newBuilder(base.resolve("/-/ready")).timeout(Duration.ofSeconds(2)).build();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("prometheus exited:\n" + logTail());
      }
      try {
        if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new IOException("prometheus not ready after " + timeout + ":\n" + logTail());
  }

  /** POSTs a snappy-compressed remote-write request; throws unless Prometheus accepts it. */
  void remoteWrite(byte[] body) throws IOException, InterruptedException {
    HttpRequest req =
        HttpRequest.newBuilder(base.resolve("/api/v1/write"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Encoding", "snappy")
            .header("Content-Type", "application/x-protobuf")
            .header("X-Prometheus-Remote-Write-Version", "0.1.0")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IOException("remote write rejected (" + r.statusCode() + "): " + r.body());
    }
  }

  /** {@code /api/v1/query_range}; an error response becomes an error outcome. */
  Outcome queryRange(String query, long startMs, long endMs, long stepMs)
      throws IOException, InterruptedException {
    String form =
        "query="
            + URLEncoder.encode(query, StandardCharsets.UTF_8)
            + "&start="
            + seconds(startMs)
            + "&end="
            + seconds(endMs)
            + "&step="
            + seconds(stepMs);
    HttpRequest req =
        HttpRequest.newBuilder(base.resolve("/api/v1/query_range"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
    return parse(r.body());
  }

  @SuppressWarnings("unchecked")
  static Outcome parse(String body) {
    Map<String, Object> root = (Map<String, Object>) parseJson(body);
    if (!"success".equals(root.get("status"))) {
      return Outcome.error(root.get("errorType") + ": " + root.get("error"));
    }
    Map<String, Object> data = (Map<String, Object>) root.get("data");
    if (!"matrix".equals(data.get("resultType"))) {
      throw new IllegalStateException("expected a matrix, got " + data.get("resultType"));
    }
    Map<Labels, NavigableMap<Long, Double>> out = new TreeMap<>();
    for (Object o : (List<Object>) data.get("result")) {
      Map<String, Object> s = (Map<String, Object>) o;
      Labels.Builder b = Labels.builder();
      ((Map<String, Object>) s.get("metric")).forEach((k, v) -> b.set(k, (String) v));
      NavigableMap<Long, Double> points = new TreeMap<>();
      for (Object p : (List<Object>) s.get("values")) {
        List<Object> pair = (List<Object>) p;
        long t = Math.round(((Number) pair.get(0)).doubleValue() * 1000);
        points.put(t, goFloat((String) pair.get(1)));
      }
      out.put(b.build(), points);
    }
    return Outcome.of(out);
  }

  /** Go's float text (FormatFloat 'f' -1, or NaN / +Inf / -Inf). */
  static double goFloat(String s) {
    switch (s) {
      case "NaN":
        return Double.NaN;
      case "+Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      default:
        return Double.parseDouble(s);
    }
  }

  static String seconds(long ms) {
    return String.format(Locale.ROOT, "%d.%03d", Math.floorDiv(ms, 1000), Math.floorMod(ms, 1000));
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Stops Prometheus: SIGTERM, up to 10 s, then SIGKILL. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON_MAPPER =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** Prometheus's JSON as maps, lists, strings and numbers (Jackson's untyped binding). */
  private static Object parseJson(String text) {
    try {
      return JSON_MAPPER.readValue(text, Object.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
  }
}
