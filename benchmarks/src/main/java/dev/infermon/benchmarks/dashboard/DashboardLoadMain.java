package dev.infermon.benchmarks.dashboard;

import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.backend.Rollups;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.web.WebServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What the server spends on one dashboard load, by CPU and by count, in one process: a fleet's
 * history ({@link FleetHistory}, built once into {@code -Ddashload.dir}), infermon's HTTP server,
 * query stack (joining, pool, results cache), dashboard service and TSDB over it as {@code it-ui}'s
 * {@code HistoryServer} assembles them, and the UI's requests of one full load ({@link
 * DashboardLoad}) sent over 127.0.0.1 as the page sends them (the layout, then the panels beside
 * the filters' choices). Loads: the first after the process started (the TSDB just opened, no cache
 * filled, no query path compiled), then {@code loads} warm ones on the same window (the UI's
 * step-aligned end: the results cache serves the final steps), then {@code loads} on windows of
 * their own off the step grid (no cache helps).
 *
 * <p>Per load: process CPU (every thread, JIT and GC included), the Java threads' CPU, wall time
 * (the machine may be shared: compare CPU and counts), evaluations that reached the engine (range,
 * instant, series lookups), selects, series selected and samples read from the TSDB, bytes
 * answered. {@code -Ddashload.top=N} prints the N costliest query texts of each kind of load and
 * how many of its selects (and samples read) repeat a selection of the same load; {@code
 * -Ddashload.requests=true} each request of every load.
 *
 * <p>Usage: {@code DashboardLoadMain [pods=100] [hours=6] [scrape seconds=30] [loads=5]}; the first
 * run for a directory builds the history and exits (measure in a fresh process).
 */
public final class DashboardLoadMain {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private DashboardLoadMain() {}

  public static void main(String[] args) throws Exception {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int hours = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    int scrape = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    int loads = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    Path dir =
        Path.of(
            System.getProperty(
                "dashload.dir",
                "/tmp/infermon-dashload-" + pods + "x" + hours + "h-" + scrape + "s"));
    Files.createDirectories(dir);
    FleetHistory h = FleetHistory.existing(dir, pods, hours, scrape);
    if (h == null) {
      long t0 = System.nanoTime();
      h = FleetHistory.build(dir, pods, hours, scrape);
      System.out.printf(
          Locale.ROOT,
          "built %s: %d pods x %d h at %d s, %,d samples in %.1f s; run again to measure%n",
          dir,
          pods,
          hours,
          scrape,
          h.samples,
          (System.nanoTime() - t0) / 1e9);
      return;
    }
    long t0 = System.nanoTime();
    try (Tsdb db = Tsdb.open(dir.resolve("data"));
        Tsdb store = HistoryRollups.open(dir.resolve("data"))) {
      Rollups rollups = new Rollups(store, scrape * 1000L);
      // the live writer's first run after start: nothing is due at the history's end; it sets the
      // texts the reader answers for
      long written = HistoryRollups.writer(rollups, db, store, h.endMs).advance();
      long[] cost = HistoryRollups.seriesAndSamples(store);
      CountingStorage storage = new CountingStorage(db);
      CountingBackend evaluator =
          new CountingBackend(
              new EmbeddedQueryBackend(
                  storage,
                  new Engine(EngineOptions.DEFAULTS.withMaxSamples(200_000_000)),
                  db::appendableMinTime,
                  db));
      try (WebServer web = DashboardLoad.serve(db, QueryStack.of(evaluator, rollups))) {
        System.out.printf(
            Locale.ROOT,
            "%d pods x %d h at %d s (%,d samples; rollups of %d queries: %,d series, %,d samples,"
                + " %d query steps written at start), opened and serving in %.1f s%n",
            pods,
            hours,
            scrape,
            h.samples,
            rollups.queries().size(),
            cost[0],
            cost[1],
            written,
            (System.nanoTime() - t0) / 1e9);
        run(new DashboardLoad("http://127.0.0.1:" + web.port()), h, evaluator, storage, loads);
      }
    }
  }

  private static void run(
      DashboardLoad ui, FleetHistory h, CountingBackend ev, CountingStorage st, int loads)
      throws Exception {
    long range = h.hours * 3600L;
    long step = DashboardLoad.stepFor(range);
    // the UI's window at the history's end: the end rounded up to the step
    double end = DashboardLoad.uiEndSeconds(h.endMs, step);
    int top = Integer.getInteger("dashload.top", 0);
    System.out.println(
        "load          wall_ms  process_cpu_ms  thread_cpu_ms  range  instant  series  selects "
            + " series_selected  samples_read  MB");
    measure("first", ui, end, range, ev, st, top, true);
    for (int i = 1; i <= loads; i++) {
      measure("warm " + i, ui, end, range, ev, st, i == loads ? top : 0, false);
    }
    for (int i = 1; i <= loads; i++) {
      // off the grid and past the last end: a new grid phase misses the results cache, a new end
      // misses the inventory
      measure("no-cache " + i, ui, end + i * 1.013, range, ev, st, i == loads ? top : 0, false);
    }
  }

  private static void measure(
      String name,
      DashboardLoad ui,
      double end,
      long range,
      CountingBackend ev,
      CountingStorage st,
      int top,
      boolean first)
      throws Exception {
    ev.reset();
    st.selects.reset();
    st.series.reset();
    st.samples.reset();
    st.bySelect.clear();
    boolean each = first || Boolean.getBoolean("dashload.requests");
    long wall0 = System.nanoTime();
    long proc0 = OS.getProcessCpuTime();
    long thr0 = threadCpu();
    long bytes = 0;
    List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
    long[] before = snapshot(ev, st);
    byte[] layout = timed(ui, DashboardLoad.layout(), ev, st, lines);
    bytes += layout.length;
    // as the page: the filters' choices (label values, then the adapters) load beside the panels
    List<DashboardLoad.Request> rs =
        DashboardLoad.requests(DashboardLoad.panelIds(layout), end, range);
    List<DashboardLoad.Request> filters = rs.subList(0, rs.size() - 2);
    CompletableFuture<Long> beside =
        CompletableFuture.supplyAsync(
            () -> {
              long n = 0;
              for (DashboardLoad.Request r : filters) {
                n += timedUnchecked(ui, r, ev, st, lines).length;
              }
              return n;
            });
    for (DashboardLoad.Request r : rs.subList(rs.size() - 2, rs.size())) {
      bytes += timed(ui, r, ev, st, lines).length;
    }
    bytes += beside.get();
    long[] after = snapshot(ev, st);
    System.out.printf(
        Locale.ROOT,
        "%-12s %8.0f %15.0f %14.0f %6d %8d %7d %8d %16d %13d %5.1f%n",
        name,
        (System.nanoTime() - wall0) / 1e6,
        (OS.getProcessCpuTime() - proc0) / 1e6,
        (threadCpu() - thr0) / 1e6,
        after[0] - before[0],
        after[1] - before[1],
        after[2] - before[2],
        after[3] - before[3],
        after[4] - before[4],
        after[5] - before[5],
        bytes / 1e6);
    if (each) {
      lines.forEach(System.out::println);
    }
    if (top > 0) {
      repeatedSelects(st, top);
      long evalCpu = ev.byQuery.values().stream().mapToLong(c -> c.cpuNanos.sum()).sum();
      System.out.printf(
          Locale.ROOT,
          "  evaluations' thread CPU: %.0f ms over %d query texts; the costliest (ms, count,"
              + " steps):%n",
          evalCpu / 1e6,
          ev.byQuery.size());
      ev.byQuery.entrySet().stream()
          .sorted(
              Comparator.comparingLong(
                  (Map.Entry<String, CountingBackend.Cost> e) -> -e.getValue().cpuNanos.sum()))
          .limit(Boolean.getBoolean("dashload.all") ? Long.MAX_VALUE : top)
          .forEach(
              e ->
                  System.out.printf(
                      Locale.ROOT,
                      "  %8.1f %3d %5d  %s%n",
                      e.getValue().cpuNanos.sum() / 1e6,
                      e.getValue().count.sum(),
                      e.getValue().steps.sum(),
                      e.getKey().length() > 220 ? e.getKey().substring(0, 220) + "…" : e.getKey()));
    }
  }

  /** How many selects and samples read repeat a selection made before in the same load. */
  private static void repeatedSelects(CountingStorage st, int top) {
    long distinct = st.bySelect.size();
    long all = 0;
    long samples = 0;
    long repeatedSamples = 0;
    for (var c : st.bySelect.values()) {
      long n = c[0].sum();
      long s = c[1].sum();
      all += n;
      samples += s;
      repeatedSamples += n > 1 ? s - s / n : 0;
    }
    System.out.printf(
        Locale.ROOT,
        "  selects: %d, distinct (matchers, range): %d; samples read: %d, by repeated selects:"
            + " %d%n",
        all,
        distinct,
        samples,
        repeatedSamples);
    st.bySelect.entrySet().stream()
        .filter(e -> e.getValue()[0].sum() > 1)
        .sorted(Comparator.comparingLong(e -> -e.getValue()[1].sum()))
        .limit(top)
        .forEach(
            e ->
                System.out.printf(
                    Locale.ROOT,
                    "  %3dx %10d samples  %s%n",
                    e.getValue()[0].sum(),
                    e.getValue()[1].sum(),
                    e.getKey().length() > 200 ? e.getKey().substring(0, 200) + "…" : e.getKey()));
  }

  private static byte[] timed(
      DashboardLoad ui,
      DashboardLoad.Request r,
      CountingBackend ev,
      CountingStorage st,
      List<String> lines)
      throws Exception {
    long[] b = snapshot(ev, st);
    long wall0 = System.nanoTime();
    long proc0 = OS.getProcessCpuTime();
    byte[] body = ui.send(r);
    long[] a = snapshot(ev, st);
    lines.add(
        String.format(
            Locale.ROOT,
            "  %-20s %8.0f %15.0f %14s %6d %8d %7d %8d %16d %13d %5.2f",
            r.name(),
            (System.nanoTime() - wall0) / 1e6,
            (OS.getProcessCpuTime() - proc0) / 1e6,
            "",
            a[0] - b[0],
            a[1] - b[1],
            a[2] - b[2],
            a[3] - b[3],
            a[4] - b[4],
            a[5] - b[5],
            body.length / 1e6));
    return body;
  }

  private static byte[] timedUnchecked(
      DashboardLoad ui,
      DashboardLoad.Request r,
      CountingBackend ev,
      CountingStorage st,
      List<String> lines) {
    try {
      return timed(ui, r, ev, st, lines);
    } catch (Exception e) {
      throw new IllegalStateException(r.name() + " failed", e);
    }
  }

  private static long[] snapshot(CountingBackend ev, CountingStorage st) {
    return new long[] {
      ev.range.sum(),
      ev.instant.sum(),
      ev.seriesCalls.sum(),
      st.selects.sum(),
      st.series.sum(),
      st.samples.sum()
    };
  }

  /** CPU of the live Java threads (HTTP, query pool, TSDB), summed. */
  private static long threadCpu() {
    long sum = 0;
    for (long id : THREADS.getAllThreadIds()) {
      long t = THREADS.getThreadCpuTime(id);
      if (t > 0) {
        sum += t;
      }
    }
    return sum;
  }
}
