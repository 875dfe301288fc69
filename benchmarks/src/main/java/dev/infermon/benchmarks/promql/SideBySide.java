package dev.infermon.benchmarks.promql;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.testing.PrometheusProcess;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Value;
import dev.infermon.promql.value.Vector;
import dev.infermon.storage.Queryable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One query on infermon's engine and on a running Prometheus, side by side: both answers compared
 * (relative 1e-6), then both timed in alternating rounds. Shared by {@link PromqlVsPrometheus} (its
 * hand-picked queries over generated data) and {@link DashboardVsPrometheus} (every query of a
 * dashboard load over a fleet's history). A query is a range query over {@code [start, end]} at
 * {@code step}, or an instant one at {@code end} when {@code start == end}.
 */
final class SideBySide {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  // Prometheus's own limit is two minutes unless its --query.timeout says otherwise; at 1,000 pods
  // a dashboard query may take longer than that
  private static final Duration TIMEOUT = Duration.ofMinutes(10);

  /** How a comparison's answer starts when every differing point lies before the settled time. */
  static final String ONLY_BEFORE = "only before the settled time: ";

  private final Engine engine;
  private final Queryable storage;
  private final PrometheusProcess prometheus;

  SideBySide(Engine engine, Queryable storage, PrometheusProcess prometheus) {
    this.engine = engine;
    this.storage = storage;
    this.prometheus = prometheus;
  }

  /**
   * Timings of one query on both sides, nanoseconds per timed round: infermon's evaluation (wall,
   * thread CPU), its parse timed apart (wall, thread CPU), Prometheus's HTTP round trip and its
   * {@code evalTotalTime}; and Prometheus's process CPU per round (averaged over the rounds: /proc
   * has tick resolution).
   */
  record Rounds(
      long[] infermon,
      long[] infermonCpu,
      long[] parse,
      long[] parseCpu,
      long[] http,
      long[] eval,
      long prometheusCpu) {
    /** infermon's thread CPU, its parse included, per round. */
    long[] infermonCpuWithParse() {
      return Stats.sum(infermonCpu, parseCpu);
    }
  }

  /** {@code warmup} then {@code rounds} rounds, each side first in every other round. */
  Rounds time(String q, long start, long end, long step, int warmup, int rounds)
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
          a = infermon(q, start, end, step);
        } else {
          long c0 = prometheus.cpuNanos();
          b = ask(q, start, end, step);
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
    return new Rounds(inf, infCpu, parse, parseCpu, http, eval, promCpu / Math.max(1, rounds));
  }

  /**
   * Wall and thread CPU nanoseconds of one evaluation on this thread, and the wall and CPU time of
   * parsing the query just before it, timed apart: Prometheus parses in {@code NewInstantQuery} /
   * {@code NewRangeQuery}, before the timer of its {@code evalTotalTime} starts (in {@code exec}),
   * so the evaluation alone is what that figure is compared with.
   */
  long[] infermon(String q, long start, long end, long step) {
    long pc0 = THREADS.getCurrentThreadCpuTime();
    long p0 = System.nanoTime();
    Expr expr = PromqlParser.parse(q);
    long parsed = System.nanoTime() - p0;
    long parseCpu = THREADS.getCurrentThreadCpuTime() - pc0;
    long c0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    Value v = evaluate(expr, start, end, step);
    long elapsed = System.nanoTime() - t0;
    long cpu = THREADS.getCurrentThreadCpuTime() - c0;
    if (v == null) {
      throw new IllegalStateException("no result");
    }
    return new long[] {elapsed, cpu, parsed, parseCpu};
  }

  private Value evaluate(Expr expr, long start, long end, long step) {
    if (start == end) {
      return engine.instantQuery(storage, expr, start).value();
    }
    return engine.rangeQuery(storage, expr, start, end, step).value();
  }

  /** One series' points of an answer: times (ms) and values. */
  private record Points(long[] ts, double[] vs) {}

  /**
   * Null when both sides return the same series and values (relative 1e-6), else what differs: the
   * series counts, or how many series and points differ, how many of those points lie at or after
   * {@code settledFrom} (a caller's time from which it expects no difference in principle; {@code
   * Long.MIN_VALUE} for all) and the first difference.
   */
  String compare(String q, long start, long end, long step, long settledFrom)
      throws IOException, InterruptedException {
    Map<String, Points> inf = infermonResult(q, start, end, step);
    Map<String, Points> prom = prometheusResult(q, start, end, step);
    if (!inf.keySet().equals(prom.keySet())) {
      String only =
          prom.keySet().stream()
              .filter(k -> !inf.containsKey(k))
              .findFirst()
              .map(k -> "; first only in Prometheus: " + k)
              .orElse(
                  inf.keySet().stream()
                      .filter(k -> !prom.containsKey(k))
                      .findFirst()
                      .map(k -> "; first only in infermon: " + k)
                      .orElse(""));
      return "series: infermon " + inf.size() + ", Prometheus " + prom.size() + only;
    }
    String first = null;
    int series = 0;
    long[] points = new long[2]; // differing, of which settled
    for (Map.Entry<String, Points> e : prom.entrySet()) {
      String d = difference(e.getKey(), e.getValue(), inf.get(e.getKey()), settledFrom, points);
      if (d != null) {
        series++;
        first = first == null ? d : first;
      }
    }
    if (first == null) {
      return null;
    }
    String settled =
        settledFrom == Long.MIN_VALUE
            ? ""
            : " (" + points[1] + " at or after " + PrometheusProcess.seconds(settledFrom) + ")";
    return String.format(
        Locale.ROOT,
        "%s%d of %d series differ, %d points%s; first: %s",
        settledFrom != Long.MIN_VALUE && points[1] == 0 ? ONLY_BEFORE : "",
        series,
        prom.size(),
        points[0],
        settled,
        first);
  }

  /** The first difference of one series, null when none; adds the differing points to counts. */
  private static String difference(
      String series, Points prom, Points inf, long settledFrom, long[] counts) {
    String first = null;
    int i = 0;
    int j = 0;
    while (i < prom.ts().length || j < inf.ts().length) {
      long tp = i < prom.ts().length ? prom.ts()[i] : Long.MAX_VALUE;
      long ti = j < inf.ts().length ? inf.ts()[j] : Long.MAX_VALUE;
      long t = Math.min(tp, ti);
      String d = null;
      if (tp != ti) {
        d =
            series
                + " at "
                + PrometheusProcess.seconds(t)
                + ": only in "
                + (tp < ti ? "Prometheus" : "infermon");
      } else if (!same(prom.vs()[i], inf.vs()[j])) {
        d =
            series
                + " at "
                + PrometheusProcess.seconds(t)
                + ": Prometheus "
                + prom.vs()[i]
                + ", infermon "
                + inf.vs()[j];
      }
      if (d != null) {
        counts[0]++;
        counts[1] += t >= settledFrom ? 1 : 0;
        first = first == null ? d : first;
      }
      i += tp <= ti ? 1 : 0;
      j += ti <= tp ? 1 : 0;
    }
    return first;
  }

  static boolean same(double a, double b) {
    return (Double.isNaN(a) && Double.isNaN(b))
        || a == b
        || Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b));
  }

  private Map<String, Points> infermonResult(String q, long start, long end, long step) {
    Map<String, Points> inf = new TreeMap<>();
    Value v = evaluate(PromqlParser.parse(q), start, end, step);
    if (v instanceof Matrix) {
      for (TimeSeries s : ((Matrix) v).series()) {
        long[] ts = new long[s.size()];
        double[] vals = new double[s.size()];
        for (int i = 0; i < s.size(); i++) {
          ts[i] = s.timestampAt(i);
          vals[i] = s.valueAt(i);
        }
        inf.put(s.labels().toString(), new Points(ts, vals));
      }
    } else if (v instanceof Vector) {
      ((Vector) v)
          .samples()
          .forEach(
              s ->
                  inf.put(
                      s.labels().toString(),
                      new Points(new long[] {end}, new double[] {s.value()})));
    } else {
      throw new IllegalStateException("a scalar or string result is not compared: " + q);
    }
    return inf;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Points> prometheusResult(String q, long start, long end, long step)
      throws IOException, InterruptedException {
    Map<String, Points> prom = new TreeMap<>();
    Map<String, Object> data = ask(q, start, end, step).data();
    for (Object o : (List<Object>) data.get("result")) {
      Map<String, Object> s = (Map<String, Object>) o;
      Labels.Builder b = Labels.builder();
      ((Map<String, Object>) s.get("metric")).forEach((k, val) -> b.set(k, (String) val));
      List<Object> points =
          s.containsKey("values") ? (List<Object>) s.get("values") : List.of(s.get("value"));
      long[] ts = new long[points.size()];
      double[] vals = new double[points.size()];
      for (int i = 0; i < vals.length; i++) {
        List<Object> point = (List<Object>) points.get(i);
        ts[i] = Math.round(((Number) point.get(0)).doubleValue() * 1000);
        vals[i] = PrometheusProcess.goFloat((String) point.get(1));
      }
      prom.put(b.build().toString(), new Points(ts, vals));
    }
    return prom;
  }

  /**
   * A series lookup ({@code /api/v1/series}) on both sides, timed as {@link #time}: infermon's
   * {@code backend.series} on this thread (wall and thread CPU), Prometheus's HTTP round trip and
   * process CPU. Prometheus reports no evaluation time for it: {@code eval} and the parse are
   * zeros.
   */
  Rounds timeSeries(
      QueryBackend backend, List<String> selectors, long start, long end, int warmup, int rounds)
      throws IOException, InterruptedException {
    long[] inf = new long[rounds];
    long[] infCpu = new long[rounds];
    long[] http = new long[rounds];
    long promCpu = 0;
    for (int i = -warmup; i < rounds; i++) {
      for (int side = 0; side < 2; side++) {
        if ((side == 0) == ((i & 1) == 0)) {
          long c0 = THREADS.getCurrentThreadCpuTime();
          long t0 = System.nanoTime();
          backend.series(selectors, start, end);
          if (i >= 0) {
            inf[i] = System.nanoTime() - t0;
            infCpu[i] = THREADS.getCurrentThreadCpuTime() - c0;
          }
        } else {
          long c0 = prometheus.cpuNanos();
          long t0 = System.nanoTime();
          prometheusSeries(selectors, start, end);
          if (i >= 0) {
            http[i] = System.nanoTime() - t0;
            promCpu += prometheus.cpuNanos() - c0;
          }
        }
      }
    }
    long[] none = new long[rounds];
    return new Rounds(inf, infCpu, none, none, http, none, promCpu / Math.max(1, rounds));
  }

  /** Null when both sides' series lookups answer the same label sets, else what differs. */
  String compareSeries(QueryBackend backend, List<String> selectors, long start, long end)
      throws IOException, InterruptedException {
    Set<String> inf = new TreeSet<>();
    backend.series(selectors, start, end).forEach(l -> inf.add(l.toString()));
    Set<String> prom = prometheusSeries(selectors, start, end);
    if (inf.equals(prom)) {
      return null;
    }
    Set<String> onlyProm = new TreeSet<>(prom);
    onlyProm.removeAll(inf);
    Set<String> onlyInf = new TreeSet<>(inf);
    onlyInf.removeAll(prom);
    return String.format(
        Locale.ROOT,
        "series: infermon %d, Prometheus %d; only in Prometheus %d%s; only in infermon %d%s",
        inf.size(),
        prom.size(),
        onlyProm.size(),
        onlyProm.isEmpty() ? "" : " (first " + onlyProm.iterator().next() + ")",
        onlyInf.size(),
        onlyInf.isEmpty() ? "" : " (first " + onlyInf.iterator().next() + ")");
  }

  @SuppressWarnings("unchecked")
  private Set<String> prometheusSeries(List<String> selectors, long start, long end)
      throws IOException, InterruptedException {
    HttpResponse<String> r = prometheus.series(selectors, start, end, TIMEOUT);
    Map<String, Object> root = (Map<String, Object>) PrometheusProcess.parseJson(r.body());
    if (!"success".equals(root.get("status"))) {
      throw new IOException("series lookup failed: " + selectors + ": " + r.body());
    }
    Set<String> out = new TreeSet<>();
    for (Object o : (List<Object>) root.get("data")) {
      Labels.Builder b = Labels.builder();
      ((Map<String, Object>) o).forEach((k, val) -> b.set(k, (String) val));
      out.add(b.build().toString());
    }
    return out;
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

  /** The query with {@code stats=all}; an IOException naming it when Prometheus refuses it. */
  @SuppressWarnings("unchecked")
  Answer ask(String query, long startMs, long endMs, long stepMs)
      throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    HttpResponse<String> r =
        startMs == endMs
            ? prometheus.query(query, startMs, TIMEOUT, "stats=all")
            : prometheus.queryRange(query, startMs, endMs, stepMs, TIMEOUT, "stats=all");
    long elapsed = System.nanoTime() - t0;
    Map<String, Object> root = (Map<String, Object>) PrometheusProcess.parseJson(r.body());
    if (!"success".equals(root.get("status"))) {
      throw new IOException("query failed: " + query + ": " + r.body());
    }
    return new Answer(r.body(), elapsed, (Map<String, Object>) root.get("data"));
  }
}
