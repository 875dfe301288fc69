package dev.infermon.benchmarks.promql;

import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.testing.PrometheusProcess;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.tsdb.TsdbOptions;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The dashboard's queries on infermon's engine and on Prometheus 2.42, side by side in one run,
 * over identical data: a vLLM fleet ({@link FleetData}) appended to an infermon {@link Tsdb} (then
 * compacted, so most of it is read from blocks) and backfilled into Prometheus with {@code
 * promtool} (all blocks). Each query runs as a range query over the whole span and as an instant
 * query at its end; the results of both sides are compared first (relative 1e-6), then both are
 * warmed up and timed in alternating rounds.
 *
 * <p>What is timed: for infermon, evaluation on the calling thread ({@code Engine.rangeQuery} /
 * {@code instantQuery}), result objects included, no serialization; the parse just before it is
 * timed apart and reported beside it (Prometheus's {@code evalTotalTime} starts after its parse).
 * For Prometheus, the HTTP round trip from this JVM over 127.0.0.1 (request, evaluation, JSON
 * encoding, transfer, reading the body as a string; not parsing it), and separately its own {@code
 * evalTotalTime} from {@code stats=all}, which excludes HTTP and JSON.
 *
 * <p>Run: {@code bench/promql-vs-prometheus.sh [--pods N] [--hours H] [--step S] [--warmup W]
 * [--rounds R] [--work DIR]}.
 */
public final class PromqlVsPrometheus {
  private PromqlVsPrometheus() {}

  /** Timings of one query on both sides. */
  record Timing(DashboardQueries.Query query, String mode, SideBySide.Rounds rounds) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt =
        Cli.options(
            args, Set.of("pods", "hours", "step", "warmup", "rounds", "work", "infermon-only"));
    int pods = Integer.parseInt(opt.getOrDefault("pods", "100"));
    double hours = Double.parseDouble(opt.getOrDefault("hours", "6"));
    long step = Long.parseLong(opt.getOrDefault("step", "60")) * 1000;
    int warmup = Integer.parseInt(opt.getOrDefault("warmup", "5"));
    int rounds = Integer.parseInt(opt.getOrDefault("rounds", "15"));
    Path work = Path.of(opt.getOrDefault("work", "/tmp/infermon-bench-promql"));
    boolean infermonOnly = Boolean.parseBoolean(opt.getOrDefault("infermon-only", "false"));
    if (PrometheusProcess.unavailableReason() != null) {
      System.err.println("prometheus and promtool (Debian package prometheus) are needed");
      System.exit(2);
    }
    Files.createDirectories(work);

    long t0 = System.nanoTime();
    // Five minutes more than the timed span, so every 5m window of it is full: at the start of a
    // series Prometheus 2.42 and 3.x extrapolate rates differently (PR #13725).
    FleetData data = new FleetData(pods, hours + 5 / 60.0, 1);
    System.out.printf(
        "data: %d pods, %.1f h at 15 s: %d series, %,d samples (generated in %.1f s)%n",
        pods, hours, data.series(), data.samples(), Stats.secondsSince(t0));

    Path promData =
        work.resolve(String.format(Locale.ROOT, "prometheus-%dpods-%.2fh", pods, hours));
    if (infermonOnly) {
      System.out.println("infermon only: no Prometheus");
    } else if (!Files.exists(promData.resolve("backfilled"))) {
      Cli.deleteTree(promData);
      Path om = work.resolve("fleet.om.txt");
      t0 = System.nanoTime();
      try (Writer w = Files.newBufferedWriter(om, StandardCharsets.UTF_8)) {
        data.writeOpenMetrics(w);
      }
      System.out.printf(
          "openmetrics: %,d bytes in %.1f s%n", Files.size(om), Stats.secondsSince(t0));
      t0 = System.nanoTime();
      PrometheusProcess.backfill(om, promData, Duration.ofMinutes(30));
      Files.writeString(promData.resolve("backfilled"), "");
      Files.delete(om);
      System.out.printf("promtool backfill: %.1f s%n", Stats.secondsSince(t0));
    } else {
      System.out.println("reusing Prometheus data in " + promData);
    }

    Path tsdbDir = work.resolve("infermon-tsdb");
    Cli.deleteTree(tsdbDir);
    TsdbOptions tsdbOptions =
        new TsdbOptions(
            TsdbOptions.DEFAULT_BLOCK_RANGE,
            Duration.ofDays(3650),
            0,
            TsdbOptions.DEFAULT_WAL_SEGMENT_BYTES,
            TsdbOptions.DEFAULT_WAL_SYNC_INTERVAL,
            Duration.ofDays(1), // compaction runs once, below, not while timing
            TsdbOptions.DEFAULT_READER_DRAIN_TIMEOUT);
    List<Timing> timings = new ArrayList<>();
    try (Tsdb tsdb = Tsdb.open(tsdbDir, tsdbOptions)) {
      t0 = System.nanoTime();
      data.loadInto(tsdb);
      double load = Stats.secondsSince(t0);
      t0 = System.nanoTime();
      tsdb.compact();
      System.out.printf(
          "infermon tsdb: appended in %.1f s, compacted in %.1f s: %s%n",
          load, Stats.secondsSince(t0), tsdbSummary(tsdbDir));
      data = null; // only the stores hold the samples from here on
      System.gc();

      Engine engine = new Engine(EngineOptions.DEFAULTS);
      SideBySide sides = new SideBySide(engine, tsdb, null);
      // Evaluation steps off the sample grid (7 s past a scrape): 2.42's windows are left-closed,
      // 3.x's left-open, and only a sample on the edge tells them apart.
      long start = FleetData.time(0) + 300_000 + 7_000;
      long end = start + (long) (hours * 3_600_000) - step;
      if (infermonOnly) {
        // For profiling the engine: no Prometheus, no comparison, the same rounds.
        for (DashboardQueries.Query q : DashboardQueries.ALL) {
          for (String mode : List.of("range", "instant")) {
            long s = mode.equals("range") ? start : end;
            long[] inf = new long[rounds];
            long[] cpu = new long[rounds];
            long[] parse = new long[rounds];
            for (int i = -warmup; i < rounds; i++) {
              long[] a = sides.infermon(q.promql(), s, end, step);
              if (i >= 0) {
                inf[i] = a[0];
                cpu[i] = a[1];
                parse[i] = a[2];
              }
            }
            System.out.printf(
                "%-24s %-8s infermon wall %s ms, cpu %s ms (parse wall %s ms not included)%n",
                q.name(), mode, Stats.ms(inf), Stats.ms(cpu), Stats.ms(parse));
          }
        }
        return;
      }
      // min = max block duration: no block compaction while timing
      try (PrometheusProcess prometheus =
          PrometheusProcess.start(
              promData,
              work,
              Duration.ofMinutes(5),
              "--storage.tsdb.min-block-duration=2h",
              "--storage.tsdb.max-block-duration=2h")) {
        sides = new SideBySide(engine, tsdb, prometheus);
        System.out.printf("load before timing: %s%n", Cli.loadAverage());
        for (DashboardQueries.Query q : DashboardQueries.ALL) {
          for (String mode : List.of("range", "instant")) {
            long s = mode.equals("range") ? start : end;
            String check = sides.compare(q.promql(), s, end, step, Long.MIN_VALUE);
            if (check != null) {
              System.out.printf("RESULTS DIFFER for %s (%s): %s%n", q.name(), mode, check);
            }
            timings.add(new Timing(q, mode, sides.time(q.promql(), s, end, step, warmup, rounds)));
          }
        }
        System.out.printf("load after timing: %s%n", Cli.loadAverage());
      }
    } finally {
      Cli.deleteTree(tsdbDir);
    }
    String table = table(timings, pods, hours, step, warmup, rounds);
    System.out.println(table);
    Files.writeString(work.resolve("results.md"), table);
  }

  private static String table(
      List<Timing> timings, int pods, double hours, long step, int warmup, int rounds) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%d pods x %.1f h at 15 s; range queries over the whole span at %d s step, instant"
                + " queries at its end; %d warm-up + %d timed rounds per side, alternating;"
                + " medians (min) in ms. infermon's evaluation and its parse of the query are"
                + " timed apart (Prometheus's evalTotalTime excludes its parse). Wall ratio:"
                + " infermon evaluation wall / Prometheus evalTotalTime; with parse: (parse +"
                + " evaluation, per-round sums) / evalTotalTime. CPU ratio: infermon thread CPU,"
                + " parse included / Prometheus process CPU per query (all its threads, its parse,"
                + " HTTP and JSON included; /proc tick resolution, averaged over the rounds).%n%n",
            pods,
            hours,
            step / 1000,
            warmup,
            rounds));
    sb.append(
        "| query | mode | infermon eval, wall | infermon parse, wall | Prometheus HTTP round"
            + " trip | Prometheus evalTotalTime | wall ratio | wall ratio with parse | infermon"
            + " thread CPU with parse | Prometheus process CPU | CPU ratio | goal (wall / with"
            + " parse / CPU) |\n");
    sb.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (Timing timing : timings) {
      SideBySide.Rounds t = timing.rounds();
      long[] withParse = Stats.sum(t.infermon(), t.parse());
      long[] cpuWithParse = t.infermonCpuWithParse();
      double wall = Stats.median(t.infermon()) / Stats.median(t.eval());
      double wallWithParse = Stats.median(withParse) / Stats.median(t.eval());
      double cpu = Stats.median(cpuWithParse) / Math.max(1, t.prometheusCpu());
      boolean strict =
          timing.query().kind() == DashboardQueries.Kind.AGGREGATION
              || timing.query().kind() == DashboardQueries.Kind.HISTOGRAM_QUANTILE;
      double limit = strict ? 0.5 : 1;
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %.2f | %.2f | %s | %.2f | %.2f | %s / %s / %s (<="
                  + " %s) |%n",
              timing.query().name(),
              timing.mode(),
              Stats.ms(t.infermon()),
              Stats.ms(t.parse()),
              Stats.ms(t.http()),
              Stats.ms(t.eval()),
              wall,
              wallWithParse,
              Stats.ms(cpuWithParse),
              t.prometheusCpu() / 1e6,
              cpu,
              wall <= limit ? "met" : "MISSED",
              wallWithParse <= limit ? "met" : "MISSED",
              cpu <= limit ? "met" : "MISSED",
              strict ? "0.5" : "1"));
    }
    return sb.toString();
  }

  private static String tsdbSummary(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      long blocks = entries.filter(p -> Files.exists(p.resolve("meta.json"))).count();
      return blocks + " blocks on disk plus the head";
    }
  }
}
