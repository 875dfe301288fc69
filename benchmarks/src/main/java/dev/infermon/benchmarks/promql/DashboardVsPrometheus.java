package dev.infermon.benchmarks.promql;

import dev.infermon.benchmarks.dashboard.DashboardQueryLog;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.testing.PrometheusProcess;
import dev.infermon.tsdb.Tsdb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Every query of one dashboard load on infermon's engine and on Prometheus 2.42, side by side in
 * one run, over the same fleet history: the directory {@code DashboardLoadMain} builds (vLLM,
 * SGLang, DCGM and the rest of the simulated fleet's pages), opened with infermon's TSDB, every
 * sample of it exported to Prometheus blocks ({@link OpenMetricsExport}, kept in the work directory
 * and reused while the history is the same) and a real Prometheus started over them. The queries
 * are those one full load asks of infermon's query stack ({@link DashboardQueryLog}): each distinct
 * range and instant query, with its own window and step. For each, both answers are compared
 * (relative 1e-6; every difference is printed with the query), then both sides are timed in
 * alternating rounds ({@link SideBySide}); so are the series lookups (Prometheus's {@code
 * /api/v1/series} reports no evaluation time: process CPU and round trip only).
 *
 * <p>The history directory is opened for writing (a TSDB writes when it opens): pass a copy of one
 * that others measure.
 *
 * <p>Run: {@code bench/dashboard-vs-prometheus.sh --history DIR [--work DIR] [--warmup W] [--rounds
 * R]}.
 */
public final class DashboardVsPrometheus {
  private DashboardVsPrometheus() {}

  /** One query's outcome: its timings (null when it failed), and what differed or failed. */
  record Row(DashboardQueryLog.Asked asked, SideBySide.Rounds rounds, String finding) {
    /** infermon's thread CPU (parse included, median) over Prometheus's process CPU per round. */
    double cpuRatio() {
      return Stats.median(rounds.infermonCpuWithParse()) / Math.max(1, rounds.prometheusCpu());
    }

    /**
     * Whether Prometheus's CPU is measured at all: /proc counts 10 ms ticks, so a query that used
     * under two over all rounds has no CPU figure worth a ratio.
     */
    boolean cpuMeasured() {
      return rounds.prometheusCpu() * rounds.infermon().length >= 20_000_000L;
    }

    /** infermon's evaluation wall time over Prometheus's evalTotalTime, medians. */
    double evalRatio() {
      if (asked.kind() == DashboardQueryLog.Kind.SERIES) {
        return Double.NaN; // Prometheus reports no evaluation time for a series lookup
      }
      return Stats.median(rounds.infermon()) / Math.max(1, Stats.median(rounds.eval()));
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opt =
        Cli.options(args, Set.of("history", "work", "warmup", "rounds", "shards"));
    if (!opt.containsKey("history")) {
      throw new IllegalArgumentException("--history DIR (a DashboardLoadMain history) is needed");
    }
    Path history = Path.of(opt.get("history"));
    Path work = Path.of(opt.getOrDefault("work", "/tmp/infermon-bench-dashboard-vs-prometheus"));
    int warmup = Cli.intOption(opt, "warmup", 3, 0);
    int rounds = Cli.intOption(opt, "rounds", 10, 1);
    int shards = Cli.intOption(opt, "shards", 1, 1);
    DashboardQueryLog.History h = DashboardQueryLog.history(history);
    if (PrometheusProcess.unavailableReason() != null) {
      System.err.println(PrometheusProcess.unavailableReason());
      System.exit(2);
    }
    Files.createDirectories(work);
    System.out.printf(
        Locale.ROOT,
        "history %s: %d pods x %d h at %d s, %,d samples%n",
        history,
        h.pods(),
        h.hours(),
        h.scrapeSeconds(),
        h.samples());
    List<Row> rows;
    List<DashboardQueryLog.Asked> asked;
    try (Tsdb db = Tsdb.open(DashboardQueryLog.data(history))) {
      Path promData = prometheusData(db, history, h, shards, work);
      asked = DashboardQueryLog.oneLoad(db, h);
      System.out.printf(
          "one load asks %d distinct calls: %d range, %d instant, %d series lookups%n",
          asked.size(),
          count(asked, DashboardQueryLog.Kind.RANGE),
          count(asked, DashboardQueryLog.Kind.INSTANT),
          count(asked, DashboardQueryLog.Kind.SERIES));
      rows = sideBySide(db, promData, work, asked, warmup, rounds);
    }
    String table = DashboardVsPrometheusTable.render(rows, asked, h, warmup, rounds);
    System.out.println(table);
    Files.writeString(work.resolve("results.md"), table);
  }

  /**
   * Prometheus started over {@code promData}, then each range and instant query of {@code asked}
   * compared and timed on both sides.
   */
  private static List<Row> sideBySide(
      Tsdb db,
      Path promData,
      Path work,
      List<DashboardQueryLog.Asked> asked,
      int warmup,
      int rounds)
      throws Exception {
    List<Row> rows = new ArrayList<>();
    Engine engine = new Engine(EngineOptions.DEFAULTS.withMaxSamples(200_000_000));
    // min = max block duration: no block compaction while timing; the dashboard's own sample
    // limit; a query timeout no 1,000-pod query reaches
    try (PrometheusProcess prometheus =
        PrometheusProcess.start(
            promData,
            work,
            Duration.ofMinutes(10),
            "--storage.tsdb.min-block-duration=2h",
            "--storage.tsdb.max-block-duration=2h",
            "--query.max-samples=200000000",
            "--query.timeout=10m")) {
      long t0 = System.nanoTime();
      OpenMetricsExport.awaitMerged(promData, Duration.ofMinutes(60));
      System.out.printf(
          Locale.ROOT,
          "Prometheus ready; no two of its blocks overlap (waited %.1f s)%n",
          Stats.secondsSince(t0));
      SideBySide sides = new SideBySide(engine, db, prometheus);
      System.out.printf("load before timing: %s%n", Cli.loadAverage());
      QueryBackend backend = new EmbeddedQueryBackend(db, engine);
      for (DashboardQueryLog.Asked a : asked) {
        rows.add(
            a.kind() == DashboardQueryLog.Kind.SERIES
                ? seriesRow(sides, backend, a, warmup, rounds)
                : row(sides, a, db.startTime(), warmup, rounds));
      }
      System.out.printf("load after timing: %s%n", Cli.loadAverage());
    }
    return rows;
  }

  private static long count(List<DashboardQueryLog.Asked> asked, DashboardQueryLog.Kind kind) {
    return asked.stream().filter(a -> a.kind() == kind).count();
  }

  /**
   * Compared, then timed; a difference is printed, a failure on either side is the row. Points
   * whose windows reach before the history's first sample ({@code dataStart}) are told apart: at a
   * series' start Prometheus 2.42 extrapolates rates otherwise than 3.x (PR #13725), whose
   * semantics infermon follows.
   */
  private static Row row(
      SideBySide sides, DashboardQueryLog.Asked a, long dataStart, int warmup, int rounds)
      throws InterruptedException {
    long start = a.startMs();
    long end = a.endMs();
    try {
      long settled = dataStart + longestRangeMs(a.query());
      String check = sides.compare(a.query(), start, end, a.stepMs(), settled);
      if (check != null) {
        System.out.printf("RESULTS DIFFER for %s: %s%n", describe(a), check);
      }
      return new Row(a, sides.time(a.query(), start, end, a.stepMs(), warmup, rounds), check);
    } catch (java.io.IOException | RuntimeException e) {
      System.out.printf("FAILED %s: %s%n", describe(a), e.getMessage());
      return new Row(a, null, "failed: " + e.getMessage());
    }
  }

  /**
   * The longest range ({@code [5m]}, subqueries' included) in a query, and at least the lookback
   * (5m): how far before a point its result may read.
   */
  static long longestRangeMs(String query) {
    long longest = 300_000;
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\\[(\\d+)([smhd])[\\]:]").matcher(query);
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      long unit =
          switch (m.group(2)) {
            case "s" -> 1_000;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> 86_400_000;
          };
      longest = Math.max(longest, n * unit);
    }
    return longest;
  }

  /** A series lookup compared, then timed, as {@link #row}. */
  private static Row seriesRow(
      SideBySide sides, QueryBackend backend, DashboardQueryLog.Asked a, int warmup, int rounds)
      throws InterruptedException {
    List<String> selectors = List.of(a.query().split("\n"));
    try {
      String check = sides.compareSeries(backend, selectors, a.startMs(), a.endMs());
      if (check != null) {
        System.out.printf("RESULTS DIFFER for %s: %s%n", describe(a), check);
      }
      return new Row(
          a, sides.timeSeries(backend, selectors, a.startMs(), a.endMs(), warmup, rounds), check);
    } catch (java.io.IOException | RuntimeException e) {
      System.out.printf("FAILED %s: %s%n", describe(a), e.getMessage());
      return new Row(a, null, "failed: " + e.getMessage());
    }
  }

  static String describe(DashboardQueryLog.Asked a) {
    return a.kind() == DashboardQueryLog.Kind.RANGE
        ? String.format(
            Locale.ROOT,
            "range [%d, %d] step %d s: %s",
            a.startMs() / 1000,
            a.endMs() / 1000,
            a.stepMs() / 1000,
            a.query())
        : a.kind() == DashboardQueryLog.Kind.INSTANT
            ? String.format(Locale.ROOT, "instant at %d: %s", a.endMs() / 1000, a.query())
            : String.format(
                Locale.ROOT,
                "series lookup [%d, %d]: %s",
                a.startMs() / 1000,
                a.endMs() / 1000,
                a.query());
  }

  /**
   * Prometheus blocks of the history, exported into {@code work/prometheus} unless an export of the
   * same history (directory, end, sample count) is there already.
   */
  private static Path prometheusData(
      Tsdb db, Path history, DashboardQueryLog.History h, int shards, Path work) throws Exception {
    Path promData = work.resolve("prometheus");
    Path marker = work.resolve("prometheus.exported");
    String id = history.toAbsolutePath().normalize() + " " + h.endMs() + " " + h.samples();
    if (Files.exists(marker) && Files.readString(marker).startsWith(id + "\n")) {
      System.out.println("reusing the Prometheus blocks in " + promData);
      return promData;
    }
    Files.deleteIfExists(marker);
    Cli.deleteTree(promData);
    OpenMetricsExport.Result r =
        OpenMetricsExport.toPrometheus(
            db, db.startTime(), h.endMs(), shards, work, promData, Duration.ofHours(12));
    String summary =
        String.format(
            Locale.ROOT,
            "exported %,d series, %,d samples (the history counts %,d; %d staleness markers left"
                + " out), %,d bytes of OpenMetrics in %.1f s; promtool: %d blocks in %.1f s;"
                + " %.2f s per million samples in all",
            r.series(),
            r.samples(),
            h.samples(),
            r.staleMarkersLeftOut(),
            r.bytes(),
            r.exportSeconds(),
            r.blocks(),
            r.promtoolSeconds(),
            (r.exportSeconds() + r.promtoolSeconds()) / Math.max(1e-9, r.samples() / 1e6));
    System.out.println(summary);
    Files.writeString(marker, id + "\n" + summary + "\n");
    return promData;
  }
}
