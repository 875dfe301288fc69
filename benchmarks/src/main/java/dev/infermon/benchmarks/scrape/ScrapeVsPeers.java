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
 * <p>With {@code --interval SECONDS}, the scrapes each side made in the window ({@code
 * sum(count_over_time(up[window]))} from its API) beside those its targets were due, so a missed
 * scrape shows; with a data directory on a side, its size on disk ({@code du}) per sample held
 * (every sample its counter counted since start, remote-written history included), and the bytes
 * per sample of what is compacted: for a Prometheus-layout directory its blocks' sizes over their
 * {@code meta.json} {@code numSamples}, for VictoriaMetrics its {@code data} and {@code indexdb}
 * (its caches and in-memory rows left out) over the samples held; with {@code --process name=pid},
 * another process's CPU and RSS over the same window (the page server, so its cost is seen and not
 * counted). The one-minute load average at both ends of the window is printed.
 *
 * <p>Arguments: {@code name=pid,metricsUrl,samplesCounter,seriesGauge[,dataDir]} per side (a
 * counter or gauge may carry a label selector, {@code vm_rows{type="x"}}: every line starting with
 * it is summed), then {@code --warmup SECONDS --window SECONDS [--interval SECONDS] [--process
 * name=pid]}. The API is at the metrics URL's host and port.
 */
public final class ScrapeVsPeers {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final long TICKS = 100; // getconf CLK_TCK on Linux

  private ScrapeVsPeers() {}

  /** One measured process. */
  record Side(
      String name, long pid, URI metrics, String samplesCounter, String seriesGauge, Path data) {
    static Side parse(String arg) {
      int eq = arg.indexOf('=');
      String[] p = arg.substring(eq + 1).split(",");
      if (eq <= 0 || p.length < 4 || p.length > 5) {
        throw new IllegalArgumentException(
            "expected name=pid,metricsUrl,samplesCounter,seriesGauge[,dataDir], got " + arg);
      }
      return new Side(
          arg.substring(0, eq),
          Long.parseLong(p[0]),
          URI.create(p[1]),
          p[2],
          p[3],
          p.length == 5 ? Path.of(p[4]) : null);
    }
  }

  /** What one look at a process shows. */
  record Reading(long nanos, double cpuSeconds, double samples, double series, long rssBytes) {}

  /** What a side's own API says at the end of the window. */
  record ApiView(
      long series,
      int targets,
      int notUp,
      double meanScrapeSeconds,
      double maxScrape,
      long scrapes) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    List<Side> sides = new ArrayList<>();
    long warmup = 60;
    long window = 240;
    long interval = 0;
    List<String[]> others = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--interval":
          interval = Long.parseLong(args[++i]);
          break;
        case "--process":
          others.add(args[++i].split("=", 2));
          break;
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
    String loadBefore = loadAverage();
    long[] othersBefore = new long[others.size()];
    for (int i = 0; i < others.size(); i++) {
      othersBefore[i] = cpuTicks(Long.parseLong(others.get(i)[1]));
    }
    List<Reading> before = new ArrayList<>();
    for (Side s : sides) {
      before.add(read(s));
    }
    Thread.sleep(window * 1000);
    List<Reading> after = new ArrayList<>();
    for (Side s : sides) {
      after.add(read(s));
    }
    String loadAfter = loadAverage();
    List<ApiView> views = new ArrayList<>();
    for (Side s : sides) {
      views.add(api(s, window));
    }
    System.out.printf(
        "load average (1 min) at the start and end of the window: %s, %s%n%n",
        loadBefore, loadAfter);
    System.out.println(
        "| server | samples appended | samples/s | CPU s | CPU share | CPU s per 1 M samples |"
            + " head series | RSS | RSS per series | series (API) | targets not up | scrapes done"
            + " / due | scrape duration mean / max | samples held | disk | disk per sample |"
            + " compacted per sample |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (int i = 0; i < sides.size(); i++) {
      Reading a = before.get(i);
      Reading b = after.get(i);
      double samples = b.samples() - a.samples();
      double secs = (b.nanos() - a.nanos()) / 1e9;
      double cpu = b.cpuSeconds() - a.cpuSeconds();
      System.out.printf(
          Locale.ROOT,
          "| %s | %,.0f | %,.0f | %.1f | %.0f%% | %.2f | %,.0f | %.0f MiB | %,.0f B | %,d | %d of %d |"
              + " %s | %.1f / %.1f ms | %s |%n",
          sides.get(i).name(),
          samples,
          samples / secs,
          cpu,
          100 * cpu / secs,
          cpu / (samples / 1e6),
          b.series(),
          b.rssBytes() / 1048576.0,
          b.rssBytes() / b.series(),
          views.get(i).series(),
          views.get(i).notUp(),
          views.get(i).targets(),
          interval == 0
              ? "—"
              : String.format(
                  Locale.ROOT,
                  "%,d / %,d",
                  views.get(i).scrapes(),
                  views.get(i).targets() * (window / interval)),
          views.get(i).meanScrapeSeconds() * 1000,
          views.get(i).maxScrape() * 1000,
          disk(sides.get(i), b.samples()));
    }
    for (int i = 0; i < others.size(); i++) {
      long pid = Long.parseLong(others.get(i)[1]);
      double cpu = (cpuTicks(pid) - othersBefore[i]) / (double) TICKS;
      System.out.printf(
          Locale.ROOT,
          "%n%s (not a side: measured apart over the same window): %.1f CPU s, %.0f%% of a core,"
              + " RSS %.0f MiB%n",
          others.get(i)[0],
          cpu,
          100 * cpu / window,
          rss(pid) / 1048576.0);
    }
  }

  /** Samples held, size of the data directory and bytes per sample, or dashes without one. */
  private static String disk(Side s, double samplesHeld) throws IOException {
    if (s.data() == null) {
      return "— | — | — | —";
    }
    long bytes = size(s.data());
    long blockBytes = 0;
    long blockSamples = 0;
    try (var dirs = Files.list(s.data())) {
      for (Path d : dirs.toList()) {
        Path meta = d.resolve("meta.json");
        if (Files.isRegularFile(meta)) {
          blockBytes += size(d);
          blockSamples += JSON.readTree(meta.toFile()).path("stats").path("numSamples").asLong();
        }
      }
    }
    String compacted;
    if (blockSamples > 0) {
      compacted =
          String.format(
              Locale.ROOT,
              "%.2f B (blocks: %,d samples)",
              blockBytes / (double) blockSamples,
              blockSamples);
    } else if (Files.isDirectory(s.data().resolve("indexdb"))) {
      compacted =
          String.format(
              Locale.ROOT,
              "%.2f B (data + indexdb)",
              (size(s.data().resolve("data")) + size(s.data().resolve("indexdb"))) / samplesHeld);
    } else {
      compacted = "no block";
    }
    return String.format(
        Locale.ROOT,
        "%,.0f | %.0f MiB | %.2f B | %s",
        samplesHeld,
        bytes / 1048576.0,
        bytes / samplesHeld,
        compacted);
  }

  /** Bytes of the regular files under a directory. */
  private static long size(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (var files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              f -> {
                try {
                  return Files.size(f);
                } catch (IOException e) {
                  return 0; // removed while walking (a compaction's temporary file)
                }
              })
          .sum();
    }
  }

  private static String loadAverage() throws IOException {
    return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
  }

  /** The series count and the targets' last scrapes, from the side's own HTTP API. */
  static ApiView api(Side s, long windowSeconds) throws IOException, InterruptedException {
    URI base = s.metrics().resolve("/");
    JsonNode scraped =
        get(base.resolve(
                "/api/v1/query?query=sum(count_over_time(up%5B" + windowSeconds + "s%5D))"))
            .path("data")
            .path("result");
    long scrapes = scraped.size() == 0 ? 0 : scraped.get(0).path("value").get(1).asLong();
    long series;
    try {
      JsonNode count =
          get(base.resolve("/api/v1/query?query=count(%7B__name__!%3D%22%22%7D)"))
              .path("data")
              .path("result");
      series = count.size() == 0 ? 0 : count.get(0).path("value").get(1).asLong();
    } catch (IOException e) {
      // VictoriaMetrics refuses (HTTP 422) a query over more series than
      // -search.maxUniqueTimeseries.
      System.err.println(s.name() + ": no series count from its API: " + e.getMessage());
      series = -1;
    }
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
    return new ApiView(series, targets, notUp, targets == 0 ? 0 : sum / targets, max, scrapes);
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
    double cpu = cpuTicks(s.pid()) / (double) TICKS;
    long rss = rss(s.pid());
    String body =
        HTTP.send(
                HttpRequest.newBuilder(s.metrics()).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return new Reading(
        now, cpu, metric(body, s.samplesCounter()), metric(body, s.seriesGauge()), rss);
  }

  /** utime + stime of a process, in clock ticks. */
  private static long cpuTicks(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    // Fields after the ")" that ends the command name: utime is the 14th field, stime the 15th.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  private static long rss(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    return 0;
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
