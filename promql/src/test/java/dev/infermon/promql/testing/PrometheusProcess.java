package dev.infermon.promql.testing;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus 2.42 ({@code /usr/bin/prometheus}) run by a test or a benchmark: backfilled
 * with {@code promtool}, started on 127.0.0.1 on a free port over a given data directory, queried
 * over HTTP, and always stopped ({@link #close()}, and a shutdown hook should the JVM exit first).
 * Every wait is bounded. Not thread-safe.
 *
 * <p>Used by promql's differential test and by the benchmarks module's PromQL comparison; the
 * static helpers read Prometheus's JSON answers.
 */
public final class PrometheusProcess implements AutoCloseable {
  public static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
  public static final Path PROMTOOL = Path.of("/usr/bin/promtool");

  private final Process process;
  private final Thread hook;
  private final Path log;
  private final URI base;
  // Prometheus serves plain HTTP/1.1: asking for it spares every request an h2c upgrade attempt,
  // which a benchmark would otherwise time.
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

  /** Why the binaries cannot be used, or null when both are there. */
  public static String unavailableReason() {
    for (Path p : List.of(PROMETHEUS, PROMTOOL)) {
      if (!Files.isExecutable(p)) {
        return p + " is absent (Debian package prometheus)";
      }
    }
    return null;
  }

  /**
   * {@code promtool tsdb create-blocks-from openmetrics <file> <dir>}; its output goes to {@code
   * promtool.log} beside {@code dataDir}.
   */
  public static void backfill(Path openMetrics, Path dataDir, Duration timeout)
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
   * Starts Prometheus on {@code dataDir} with lookback 5m and retention 100y, plus {@code
   * extraFlags}, and waits for {@code /-/ready}. Its config (no scrape configs) and log are written
   * to {@code workDir}.
   */
  public static PrometheusProcess start(
      Path dataDir, Path workDir, Duration readyTimeout, String... extraFlags)
      throws IOException, InterruptedException {
    return start(
        "global:\n  evaluation_interval: 1m\n", dataDir, workDir, readyTimeout, extraFlags);
  }

  /** As {@link #start(Path, Path, Duration, String...)} with {@code config} as prometheus.yml. */
  public static PrometheusProcess start(
      String config, Path dataDir, Path workDir, Duration readyTimeout, String... extraFlags)
      throws IOException, InterruptedException {
    Path configFile = workDir.resolve("prometheus.yml");
    Files.writeString(configFile, config);
    Path log = workDir.resolve("prometheus.log");
    int port = freePort();
    List<String> command = new ArrayList<>();
    command.add(PROMETHEUS.toString());
    command.add("--config.file=" + configFile);
    command.add("--storage.tsdb.path=" + dataDir);
    command.add("--storage.tsdb.retention.time=100y");
    command.addAll(List.of(extraFlags));
    command.add("--query.lookback-delta=5m");
    command.add("--web.listen-address=127.0.0.1:" + port);
    Process p =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
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

  /** Its HTTP API's base, {@code http://127.0.0.1:<port>}. */
  public URI base() {
    return base;
  }

  /**
   * POSTs a snappy-compressed remote-write request; throws unless Prometheus accepts it (start it
   * with {@code --web.enable-remote-write-receiver}).
   */
  public void remoteWrite(byte[] body) throws IOException, InterruptedException {
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

  /**
   * {@code /api/v1/query_range}, with {@code extraParams} ({@code "stats=all"}, already encoded)
   * appended to the form; the answer as received, error statuses included.
   */
  public HttpResponse<String> queryRange(
      String query, long startMs, long endMs, long stepMs, Duration timeout, String... extraParams)
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
    return post("/api/v1/query_range", form, extraParams, timeout);
  }

  /** {@code /api/v1/query} at {@code timeMs}; otherwise as {@link #queryRange}. */
  public HttpResponse<String> query(
      String query, long timeMs, Duration timeout, String... extraParams)
      throws IOException, InterruptedException {
    String form =
        "query=" + URLEncoder.encode(query, StandardCharsets.UTF_8) + "&time=" + seconds(timeMs);
    return post("/api/v1/query", form, extraParams, timeout);
  }

  /**
   * {@code /api/v1/series} for {@code selectors} ({@code match[]}) over {@code [startMs, endMs]};
   * the answer as received, error statuses included.
   */
  public HttpResponse<String> series(
      List<String> selectors, long startMs, long endMs, Duration timeout)
      throws IOException, InterruptedException {
    StringBuilder form = new StringBuilder();
    for (String s : selectors) {
      form.append("match[]=").append(URLEncoder.encode(s, StandardCharsets.UTF_8)).append('&');
    }
    form.append("start=").append(seconds(startMs)).append("&end=").append(seconds(endMs));
    return post("/api/v1/series", form.toString(), new String[0], timeout);
  }

  private HttpResponse<String> post(String path, String form, String[] extra, Duration timeout)
      throws IOException, InterruptedException {
    StringBuilder body = new StringBuilder(form);
    for (String param : extra) {
      body.append('&').append(param);
    }
    HttpRequest req =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(timeout)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .build();
    return http.send(req, HttpResponse.BodyHandlers.ofString());
  }

  /**
   * CPU time Prometheus has used so far (user + system, all threads), in nanoseconds, from {@code
   * /proc/<pid>/stat}; resolution one clock tick (10 ms), so sum it over many queries.
   */
  public long cpuNanos() throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
    // Fields after the command name (which is in parentheses and may hold spaces).
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
    return ticks * 10_000_000L; // USER_HZ is 100 on Linux
  }

  /** Milliseconds as the API's seconds with three decimals. */
  public static String seconds(long ms) {
    return String.format(Locale.ROOT, "%d.%03d", Math.floorDiv(ms, 1000), Math.floorMod(ms, 1000));
  }

  /** Go's float text in Prometheus's answers (FormatFloat 'f' -1, or NaN / +Inf / -Inf). */
  public static double goFloat(String s) {
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

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON_MAPPER =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** Prometheus's JSON as maps, lists, strings and numbers (Jackson's untyped binding). */
  public static Object parseJson(String text) {
    try {
      return JSON_MAPPER.readValue(text, Object.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
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
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
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
}
