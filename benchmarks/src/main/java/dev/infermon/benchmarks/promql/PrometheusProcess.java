package dev.infermon.benchmarks.promql;

import java.io.IOException;
import java.net.InetAddress;
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
import java.util.concurrent.TimeUnit;

/**
 * Prometheus 2.42 ({@code /usr/bin/prometheus}) for the benchmark: backfilled with {@code
 * promtool}, started on 127.0.0.1 on a free port with block compaction off (so nothing runs in the
 * background while it is timed), queried over HTTP, always stopped (close and a shutdown hook). Not
 * thread-safe.
 */
final class PrometheusProcess implements AutoCloseable {
  static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
  static final Path PROMTOOL = Path.of("/usr/bin/promtool");

  /** One answer: the body as received, the round trip, and Prometheus's own timings. */
  record Answer(String body, long roundTripNanos, Map<String, Object> data) {
    /** A timing from {@code stats=all} ({@code evalTotalTime}, ...), in seconds. */
    double timing(String name) {
      @SuppressWarnings("unchecked")
      Map<String, Object> stats = (Map<String, Object>) data.get("stats");
      @SuppressWarnings("unchecked")
      Map<String, Object> timings = (Map<String, Object>) stats.get("timings");
      return ((Number) timings.get(name)).doubleValue();
    }
  }

  private final Process process;
  private final Thread hook;
  private final Path log;
  private final URI base;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private PrometheusProcess(Process process, Thread hook, Path log, int port) {
    this.process = process;
    this.hook = hook;
    this.log = log;
    this.base = URI.create("http://127.0.0.1:" + port);
  }

  static boolean available() {
    return Files.isExecutable(PROMETHEUS) && Files.isExecutable(PROMTOOL);
  }

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

  static PrometheusProcess start(Path dataDir, Path workDir, Duration readyTimeout)
      throws IOException, InterruptedException {
    Path config = workDir.resolve("prometheus.yml");
    Files.writeString(config, "global:\n  evaluation_interval: 1m\n");
    Path log = workDir.resolve("prometheus.log");
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Process p =
        new ProcessBuilder(
                PROMETHEUS.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dataDir,
                "--storage.tsdb.retention.time=100y",
                // min = max block duration: no block compaction while timing
                "--storage.tsdb.min-block-duration=2h",
                "--storage.tsdb.max-block-duration=2h",
                "--query.lookback-delta=5m",
                "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    Thread hook = new Thread(p::destroyForcibly, "stop-prometheus");
    Runtime.getRuntime().addShutdownHook(hook);
    PrometheusProcess server = new PrometheusProcess(p, hook, log, port);
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

  /** A range query ({@code start == end} for an instant one) with {@code stats=all}. */
  @SuppressWarnings("unchecked")
  Answer query(String query, long startMs, long endMs, long stepMs)
      throws IOException, InterruptedException {
    boolean instant = startMs == endMs;
    String form =
        "query="
            + URLEncoder.encode(query, StandardCharsets.UTF_8)
            + (instant
                ? "&time=" + seconds(startMs)
                : "&start="
                    + seconds(startMs)
                    + "&end="
                    + seconds(endMs)
                    + "&step="
                    + seconds(stepMs))
            + "&stats=all";
    HttpRequest req =
        HttpRequest.newBuilder(base.resolve(instant ? "/api/v1/query" : "/api/v1/query_range"))
            .timeout(Duration.ofSeconds(120))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    long t0 = System.nanoTime();
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
    long elapsed = System.nanoTime() - t0;
    Map<String, Object> root = (Map<String, Object>) parseJson(r.body());
    if (!"success".equals(root.get("status"))) {
      throw new IOException("query failed: " + query + ": " + r.body());
    }
    return new Answer(r.body(), elapsed, (Map<String, Object>) root.get("data"));
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%d.%03d", Math.floorDiv(ms, 1000), Math.floorMod(ms, 1000));
  }

  /**
   * CPU time Prometheus has used so far (user + system, all threads), in nanoseconds, from {@code
   * /proc/<pid>/stat}; resolution one clock tick (10 ms), so sum it over many queries.
   */
  long cpuNanos() throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
    // Fields after the command name (which is in parentheses and may hold spaces).
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
    return ticks * 10_000_000L; // USER_HZ is 100 on Linux
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
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
