package dev.infermon.benchmarks.scrape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Measures scraping servers that are already running side by side (started by {@code
 * bench/scrape-vs-peers.sh}: infermon, Prometheus, VictoriaMetrics): after a warm-up, CPU seconds
 * (utime + stime of the process, from {@code /proc/<pid>/stat}) per million samples appended (each
 * side's own counter, read from its {@code /metrics}) over a window, and resident memory ({@code
 * VmRSS}) per active series at the end; then, from each side's Prometheus-compatible API, the
 * series count ({@code count({__name__!=""})}) and the targets' last scrape durations (mean and max
 * of {@code lastScrapeDuration}, and how many targets are not up). Prints a Markdown table.
 *
 * <p>Arguments: {@code name=pid,metricsUrl,samplesCounter,seriesGauge} per side (a counter or gauge
 * may carry a label selector, {@code vm_rows{type="x"}}: every line starting with it is summed),
 * then {@code --warmup SECONDS --window SECONDS}. The API is at the metrics URL's host and port.
 */
public final class ScrapeVsPeers {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final long TICKS = 100; // getconf CLK_TCK on Linux

  private ScrapeVsPeers() {}

  /** One measured process. */
  record Side(String name, long pid, URI metrics, String samplesCounter, String seriesGauge) {
    static Side parse(String arg) {
      int eq = arg.indexOf('=');
      String[] p = arg.substring(eq + 1).split(",");
      if (eq <= 0 || p.length != 4) {
        throw new IllegalArgumentException(
            "expected name=pid,metricsUrl,samplesCounter,seriesGauge, got " + arg);
      }
      return new Side(arg.substring(0, eq), Long.parseLong(p[0]), URI.create(p[1]), p[2], p[3]);
    }
  }

  /** What one look at a process shows. */
  record Reading(long nanos, double cpuSeconds, double samples, double series, long rssBytes) {}

  /** What a side's own API says at the end of the window. */
  record ApiView(long series, int targets, int notUp, double meanScrapeSeconds, double maxScrape) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    List<Side> sides = new ArrayList<>();
    long warmup = 60;
    long window = 240;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--warmup":
          warmup = Long.parseLong(args[++i]);
          break;
        case "--window":
          window = Long.parseLong(args[++i]);
          break;
        default:
          sides.add(Side.parse(args[i]));
      }
    }
    System.err.printf("warm-up %d s, then a %d s window%n", warmup, window);
    Thread.sleep(warmup * 1000);
    List<Reading> before = new ArrayList<>();
    for (Side s : sides) {
      before.add(read(s));
    }
    Thread.sleep(window * 1000);
    List<Reading> after = new ArrayList<>();
    for (Side s : sides) {
      after.add(read(s));
    }
    List<ApiView> views = new ArrayList<>();
    for (Side s : sides) {
      views.add(api(s));
    }
    System.out.println(
        "| server | samples appended | samples/s | CPU s | CPU s per 1 M samples | head series |"
            + " RSS | RSS per series | series (API) | targets not up | scrape duration mean / max |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    for (int i = 0; i < sides.size(); i++) {
      Reading a = before.get(i);
      Reading b = after.get(i);
      double samples = b.samples() - a.samples();
      double secs = (b.nanos() - a.nanos()) / 1e9;
      double cpu = b.cpuSeconds() - a.cpuSeconds();
      System.out.printf(
          Locale.ROOT,
          "| %s | %,.0f | %,.0f | %.1f | %.2f | %,.0f | %.0f MiB | %,.0f B | %,d | %d of %d |"
              + " %.1f / %.1f ms |%n",
          sides.get(i).name(),
          samples,
          samples / secs,
          cpu,
          cpu / (samples / 1e6),
          b.series(),
          b.rssBytes() / 1048576.0,
          b.rssBytes() / b.series(),
          views.get(i).series(),
          views.get(i).notUp(),
          views.get(i).targets(),
          views.get(i).meanScrapeSeconds() * 1000,
          views.get(i).maxScrape() * 1000);
    }
  }

  /** The series count and the targets' last scrapes, from the side's own HTTP API. */
  static ApiView api(Side s) throws IOException, InterruptedException {
    URI base = s.metrics().resolve("/");
    JsonNode count =
        get(base.resolve("/api/v1/query?query=count(%7B__name__!%3D%22%22%7D)"))
            .path("data")
            .path("result");
    long series = count.size() == 0 ? 0 : count.get(0).path("value").get(1).asLong();
    int targets = 0;
    int notUp = 0;
    double sum = 0;
    double max = 0;
    for (JsonNode t : get(base.resolve("/api/v1/targets")).path("data").path("activeTargets")) {
      targets++;
      if (!"up".equals(t.path("health").asText())) {
        notUp++;
      }
      double d = t.path("lastScrapeDuration").asDouble();
      sum += d;
      max = Math.max(max, d);
    }
    return new ApiView(series, targets, notUp, targets == 0 ? 0 : sum / targets, max);
  }

  private static JsonNode get(URI uri) throws IOException, InterruptedException {
    HttpResponse<byte[]> r =
        HTTP.send(
            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw new IOException(uri + " answered HTTP " + r.statusCode());
    }
    return JSON.readTree(r.body());
  }

  static Reading read(Side s) throws IOException, InterruptedException {
    long now = System.nanoTime();
    Path proc = Path.of("/proc/" + s.pid() + "/stat");
    if (!Files.exists(proc)) {
      throw new IllegalStateException(
          s.name() + " (pid " + s.pid() + ") is not running any more: see its log");
    }
    String stat = Files.readString(proc);
    // Fields after the ")" that ends the command name: utime is the 14th field, stime the 15th.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    double cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / (double) TICKS;
    long rss = 0;
    for (String line : Files.readAllLines(Path.of("/proc/" + s.pid() + "/status"))) {
      if (line.startsWith("VmRSS:")) {
        rss = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    String body =
        HTTP.send(
                HttpRequest.newBuilder(s.metrics()).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return new Reading(
        now, cpu, metric(body, s.samplesCounter()), metric(body, s.seriesGauge()), rss);
  }

  /** Sum of every sample of a metric in a text exposition. */
  static double metric(String exposition, String name) {
    double sum = 0;
    boolean found = false;
    for (String line : exposition.split("\n")) {
      if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
        String[] parts = line.trim().split("\\s+");
        sum += Double.parseDouble(parts[parts.length - 1]);
        found = true;
      }
    }
    if (!found) {
      throw new IllegalStateException("no " + name + " in the exposition");
    }
    return sum;
  }
}
