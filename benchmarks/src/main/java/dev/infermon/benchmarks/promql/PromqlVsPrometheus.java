package dev.infermon.benchmarks.promql;

import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.testing.PrometheusProcess;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Value;
import dev.infermon.promql.value.Vector;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.tsdb.TsdbOptions;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
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
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private PromqlVsPrometheus() {}

  /** Timings of one query on both sides, nanoseconds per round. */
  record Timing(
      DashboardQueries.Query query,
      String mode,
      long[] infermon,
      long[] infermonCpu,
      long[] parse,
      long[] parseCpu,
      long[] http,
      long[] eval,
      long prometheusCpu) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = options(args);
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
        pods, hours, data.series(), data.samples(), secondsSince(t0));

    Path promData =
        work.resolve(String.format(Locale.ROOT, "prometheus-%dpods-%.2fh", pods, hours));
    if (infermonOnly) {
      System.out.println("infermon only: no Prometheus");
    } else if (!Files.exists(promData.resolve("backfilled"))) {
      deleteTree(promData);
      Path om = work.resolve("fleet.om.txt");
      t0 = System.nanoTime();
      try (Writer w = Files.newBufferedWriter(om, StandardCharsets.UTF_8)) {
        data.writeOpenMetrics(w);
      }
      System.out.printf("openmetrics: %,d bytes in %.1f s%n", Files.size(om), secondsSince(t0));
      t0 = System.nanoTime();
      PrometheusProcess.backfill(om, promData, Duration.ofMinutes(30));
      Files.writeString(promData.resolve("backfilled"), "");
      Files.delete(om);
      System.out.printf("promtool backfill: %.1f s%n", secondsSince(t0));
    } else {
      System.out.println("reusing Prometheus data in " + promData);
    }

    Path tsdbDir = work.resolve("infermon-tsdb");
    deleteTree(tsdbDir);
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
      double load = secondsSince(t0);
      t0 = System.nanoTime();
      tsdb.compact();
      System.out.printf(
          "infermon tsdb: appended in %.1f s, compacted in %.1f s: %s%n",
          load, secondsSince(t0), tsdbSummary(tsdbDir));
      data = null; // only the stores hold the samples from here on
      System.gc();

      Engine engine = new Engine(EngineOptions.DEFAULTS);
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
              long[] a = infermon(engine, tsdb, q.promql(), s, end, step);
              if (i >= 0) {
                inf[i] = a[0];
                cpu[i] = a[1];
                parse[i] = a[2];
              }
            }
            System.out.printf(
                "%-24s %-8s infermon wall %s ms, cpu %s ms (parse wall %s ms not included)%n",
                q.name(), mode, ms(inf), ms(cpu), ms(parse));
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
        System.out.printf("load before timing: %s%n", loadAverage());
        for (DashboardQueries.Query q : DashboardQueries.ALL) {
          for (String mode : List.of("range", "instant")) {
            long s = mode.equals("range") ? start : end;
            String check = compare(engine, tsdb, prometheus, q.promql(), s, end, step);
            if (check != null) {
              System.out.printf("RESULTS DIFFER for %s (%s): %s%n", q.name(), mode, check);
            }
            timings.add(time(engine, tsdb, prometheus, q, mode, s, end, step, warmup, rounds));
          }
        }
        System.out.printf("load after timing: %s%n", loadAverage());
      }
    } finally {
      deleteTree(tsdbDir);
    }
    String table = table(timings, pods, hours, step, warmup, rounds);
    System.out.println(table);
    Files.writeString(work.resolve("results.md"), table);
  }

  private static Timing time(
      Engine engine,
      Tsdb tsdb,
      PrometheusProcess prometheus,
      DashboardQueries.Query q,
      String mode,
      long start,
      long end,
      long step,
      int warmup,
      int rounds)
      throws IOException, InterruptedException {
    long[] inf = new long[rounds];
    long[] infCpu = new long[rounds];
    long[] parse = new long[rounds];
    long[] parseCpu = new long[rounds];
    long[] http = new long[rounds];
    long[] eval = new long[rounds];
    long promCpu = 0;
    for (int i = -warmup; i < rounds; i++) {
      // Alternate which side goes first, so neither always runs on a warmer cache.
      long[] a = null;
      Answer b = null;
      long cpu = 0;
      for (int side = 0; side < 2; side++) {
        if ((side == 0) == ((i & 1) == 0)) {
          a = infermon(engine, tsdb, q.promql(), start, end, step);
        } else {
          long c0 = prometheus.cpuNanos();
          b = ask(prometheus, q.promql(), start, end, step);
          cpu = prometheus.cpuNanos() - c0;
        }
      }
      if (i >= 0) {
        inf[i] = a[0];
        infCpu[i] = a[1];
        parse[i] = a[2];
        parseCpu[i] = a[3];
        http[i] = b.roundTripNanos();
        eval[i] = (long) (b.timing("evalTotalTime") * 1e9);
        promCpu += cpu;
      }
    }
    return new Timing(q, mode, inf, infCpu, parse, parseCpu, http, eval, promCpu / rounds);
  }

  /**
   * Wall and thread CPU nanoseconds of one evaluation on this thread, and the wall time of parsing
   * the query just before it, timed apart: Prometheus parses in {@code NewInstantQuery} / {@code
   * NewRangeQuery}, before the timer of its {@code evalTotalTime} starts (in {@code exec}), so the
   * evaluation alone is what that figure is compared with.
   */
  private static long[] infermon(
      Engine engine, Tsdb tsdb, String q, long start, long end, long step) {
    long pc0 = THREADS.getCurrentThreadCpuTime();
    long p0 = System.nanoTime();
    Expr expr = PromqlParser.parse(q);
    long parsed = System.nanoTime() - p0;
    long parseCpu = THREADS.getCurrentThreadCpuTime() - pc0;
    long c0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    Value v = evaluate(engine, tsdb, expr, start, end, step);
    long elapsed = System.nanoTime() - t0;
    long cpu = THREADS.getCurrentThreadCpuTime() - c0;
    if (v == null) {
      throw new IllegalStateException("no result");
    }
    return new long[] {elapsed, cpu, parsed, parseCpu};
  }

  private static Value evaluate(
      Engine engine, Tsdb tsdb, Expr expr, long start, long end, long step) {
    if (start == end) {
      return engine.instantQuery(tsdb, expr, start).value();
    }
    return engine.rangeQuery(tsdb, expr, start, end, step).value();
  }

  /** Null when both sides return the same series and values (relative 1e-6), else what differs. */
  @SuppressWarnings("unchecked")
  private static String compare(
      Engine engine,
      Tsdb tsdb,
      PrometheusProcess prometheus,
      String q,
      long start,
      long end,
      long step)
      throws IOException, InterruptedException {
    Map<String, double[]> inf = new TreeMap<>();
    Value v = evaluate(engine, tsdb, PromqlParser.parse(q), start, end, step);
    if (v instanceof Matrix) {
      for (TimeSeries s : ((Matrix) v).series()) {
        double[] vals = new double[s.size()];
        for (int i = 0; i < s.size(); i++) {
          vals[i] = s.valueAt(i);
        }
        inf.put(s.labels().toString(), vals);
      }
    } else {
      ((Vector) v).samples().forEach(s -> inf.put(s.labels().toString(), new double[] {s.value()}));
    }
    Map<String, double[]> prom = new TreeMap<>();
    Map<String, Object> data = ask(prometheus, q, start, end, step).data();
    for (Object o : (List<Object>) data.get("result")) {
      Map<String, Object> s = (Map<String, Object>) o;
      dev.infermon.model.labels.Labels.Builder b = dev.infermon.model.labels.Labels.builder();
      ((Map<String, Object>) s.get("metric")).forEach((k, val) -> b.set(k, (String) val));
      List<Object> points =
          s.containsKey("values") ? (List<Object>) s.get("values") : List.of(s.get("value"));
      double[] vals = new double[points.size()];
      for (int i = 0; i < vals.length; i++) {
        vals[i] = PrometheusProcess.goFloat((String) ((List<Object>) points.get(i)).get(1));
      }
      prom.put(b.build().toString(), vals);
    }
    if (!inf.keySet().equals(prom.keySet())) {
      return "series: infermon " + inf.size() + ", Prometheus " + prom.size();
    }
    for (Map.Entry<String, double[]> e : prom.entrySet()) {
      double[] a = e.getValue();
      double[] b = inf.get(e.getKey());
      if (a.length != b.length) {
        return e.getKey() + ": " + a.length + " vs " + b.length + " points";
      }
      for (int i = 0; i < a.length; i++) {
        boolean same =
            (Double.isNaN(a[i]) && Double.isNaN(b[i]))
                || a[i] == b[i]
                || Math.abs(a[i] - b[i]) <= 1e-6 * Math.max(Math.abs(a[i]), Math.abs(b[i]));
        if (!same) {
          return e.getKey() + " point " + i + ": Prometheus " + a[i] + ", infermon " + b[i];
        }
      }
    }
    return null;
  }

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

  /** A range query ({@code start == end} for an instant one) with {@code stats=all}. */
  @SuppressWarnings("unchecked")
  private static Answer ask(
      PrometheusProcess prometheus, String query, long startMs, long endMs, long stepMs)
      throws IOException, InterruptedException {
    Duration timeout = Duration.ofSeconds(120);
    long t0 = System.nanoTime();
    HttpResponse<String> r =
        startMs == endMs
            ? prometheus.query(query, startMs, timeout, "stats=all")
            : prometheus.queryRange(query, startMs, endMs, stepMs, timeout, "stats=all");
    long elapsed = System.nanoTime() - t0;
    Map<String, Object> root = (Map<String, Object>) PrometheusProcess.parseJson(r.body());
    if (!"success".equals(root.get("status"))) {
      throw new IOException("query failed: " + query + ": " + r.body());
    }
    return new Answer(r.body(), elapsed, (Map<String, Object>) root.get("data"));
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
    for (Timing t : timings) {
      long[] withParse = sum(t.infermon(), t.parse());
      long[] cpuWithParse = sum(t.infermonCpu(), t.parseCpu());
      double wall = median(t.infermon()) / median(t.eval());
      double wallWithParse = median(withParse) / median(t.eval());
      double cpu = median(cpuWithParse) / Math.max(1, t.prometheusCpu());
      boolean strict =
          t.query().kind() == DashboardQueries.Kind.AGGREGATION
              || t.query().kind() == DashboardQueries.Kind.HISTOGRAM_QUANTILE;
      double limit = strict ? 0.5 : 1;
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %.2f | %.2f | %s | %.2f | %.2f | %s / %s / %s (<="
                  + " %s) |%n",
              t.query().name(),
              t.mode(),
              ms(t.infermon()),
              ms(t.parse()),
              ms(t.http()),
              ms(t.eval()),
              wall,
              wallWithParse,
              ms(cpuWithParse),
              t.prometheusCpu() / 1e6,
              cpu,
              wall <= limit ? "met" : "MISSED",
              wallWithParse <= limit ? "met" : "MISSED",
              cpu <= limit ? "met" : "MISSED",
              strict ? "0.5" : "1"));
    }
    return sb.toString();
  }

  private static long[] sum(long[] a, long[] b) {
    long[] out = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i] + b[i];
    }
    return out;
  }

  private static String ms(long[] nanos) {
    return String.format(
        Locale.ROOT,
        "%.2f (%.2f)",
        median(nanos) / 1e6,
        Arrays.stream(nanos).min().orElse(0) / 1e6);
  }

  private static double median(long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
  }

  private static String tsdbSummary(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      long blocks = entries.filter(p -> Files.exists(p.resolve("meta.json"))).count();
      return blocks + " blocks on disk plus the head";
    }
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> out = new TreeMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException("expected --name value, got " + args[i]);
      }
      out.put(args[i].substring(2), args[++i]);
    }
    return out;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
