package dev.infermon.itui;

import dev.infermon.simulator.FleetConfig;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The figure of issue 10: the full dashboard (every panel, no lazy loading) over 6 hours for 100
 * simulated inference pods, measured in headless Chromium from navigation to the last panel drawn
 * ({@code window.__lastPanelDrawnAt}, a {@code performance.now()} mark whose origin is the
 * navigation). Run by {@code bench/ui-dashboard.sh}; arguments: pods, hours, scrape seconds, runs.
 * Against a server already running: {@code URL hours runs}. {@code -Dui.bench.uncached} gives every
 * run a window of its own (no cache helps: the cold-cache figure on a warm JVM); {@code
 * -Dui.bench.resources} prints each API request's start, first and last byte.
 *
 * <p>{@code --history DIR [runs]}: the first load after a restart. Here the first navigation above
 * follows the backfill in the same JVM (the head holds everything, nothing replayed from the
 * write-ahead log); this mode instead opens a history stored before ({@link StoredHistory}, built
 * by the benchmarks module's {@code DashboardLoadMain}) as a restarted server would, copied to a
 * temporary directory first ({@code -Dui.bench.history.copy=false}: open DIR itself, a fresh copy
 * the caller made), and serves it without a ticker. The window is the one {@code range=Nh} gives a
 * user at the history's end, asked with the UI's {@code from}/{@code to} (same start, end and
 * step).
 */
public final class UiDashboardBench {
  private UiDashboardBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 1 && args[0].equals("--history")) {
      history(Path.of(args[1]), args.length > 2 ? Integer.parseInt(args[2]) : 5);
      return;
    }
    if (args.length > 0 && args[0].startsWith("http")) {
      // measure again against a server already running (hours, runs)
      try (Browser b = Browser.start(1440, 1000, false)) {
        measure(b, args[0], "all", Integer.parseInt(args[1]), Integer.parseInt(args[2]), 0);
        measure(b, args[0], "model", Integer.parseInt(args[1]), Integer.parseInt(args[2]), 0);
      }
      return;
    }
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int hours = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    int scrape = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    if (!Browser.available()) {
      System.err.println("headless Chromium not installed: " + Browser.CHROMIUM);
      System.exit(2);
    }
    FleetConfig config = fleetOf(pods);
    Path dir = Files.createTempDirectory("infermon-ui-bench-");
    long t0 = System.nanoTime();
    try (HistoryServer h = HistoryServer.start(config, Duration.ofHours(hours), scrape, dir);
        Browser b = Browser.start(1440, 1000, false)) {
      // Ctrl-C or kill while serving must not leave Chromium and its driver behind.
      Runtime.getRuntime().addShutdownHook(new Thread(b::close));
      long inference =
          h.fleet.inventory().stream().filter(p -> !p.backend().label().equals("dcgm")).count();
      System.out.printf(
          Locale.ROOT,
          "fleet: %d inference pods, %d targets; backfilled %d h at %d s: %,d samples in %.1f s%n",
          inference,
          h.fleet.inventory().size(),
          hours,
          scrape,
          h.samples,
          (System.nanoTime() - t0) / 1e9);
      measure(b, h.baseUrl(), "all", hours, runs, 0);
      measure(b, h.baseUrl(), "model", hours, runs, 0);
      b.screenshot(Path.of("target", "bench-dashboard.png"));
      if (System.getProperty("ui.serve.minutes") != null) {
        long minutes = Long.parseLong(System.getProperty("ui.serve.minutes"));
        System.out.println("serving " + h.baseUrl() + " for " + minutes + " min");
        Thread.sleep(Duration.ofMinutes(minutes).toMillis());
      }
    } finally {
      Harness.deleteQuietly(dir);
    }
  }

  /**
   * Opens the stored history in {@code dir} as a restarted server would and measures the first
   * navigation after the open, {@code runs} warm ones, then the model level.
   */
  static void history(Path dir, int runs) throws Exception {
    StoredHistory s = StoredHistory.read(dir);
    if (!Browser.available()) {
      System.err.println("headless Chromium not installed: " + Browser.CHROMIUM);
      System.exit(2);
    }
    System.out.printf(
        Locale.ROOT,
        "stored history %s: %d pods x %d h at %d s, %,d samples, ending %s%n",
        dir,
        s.pods,
        s.hours,
        s.scrapeSeconds,
        s.samples,
        Instant.ofEpochMilli(s.endMs));
    Path tmp = Files.createTempDirectory("infermon-ui-history-");
    // Chromium starts before the server opens: its start is no part of the first load.
    try (Browser b = Browser.start(1440, 1000, false)) {
      Runtime.getRuntime().addShutdownHook(new Thread(b::close));
      Path data = dir.resolve("data");
      if (Boolean.parseBoolean(System.getProperty("ui.bench.history.copy", "true"))) {
        long c0 = System.nanoTime();
        long bytes = StoredHistory.copyTree(data, tmp.resolve("data"));
        data = tmp.resolve("data");
        System.out.printf(
            Locale.ROOT,
            "copied %.0f MB to %s in %.1f s (not part of the open)%n",
            bytes / 1e6,
            data,
            (System.nanoTime() - c0) / 1e9);
      } else {
        System.out.println("opening " + data + " itself (the caller's fresh copy: it is written)");
      }
      long t0 = System.nanoTime();
      long cpu0 = processCpuNanos();
      try (HistoryServer h = HistoryServer.open(data, s.samples, s.endMs, s.scrapeSeconds)) {
        System.out.printf(
            Locale.ROOT,
            "opened and serving in %.1f s (JVM CPU %.1f s)%n",
            (System.nanoTime() - t0) / 1e9,
            (processCpuNanos() - cpu0) / 1e9);
        measure(b, h.baseUrl(), "all", s.hours, runs, s.endMs);
        measure(b, h.baseUrl(), "model", s.hours, runs, s.endMs);
        b.screenshot(Path.of("target", "bench-dashboard-history.png"));
      }
    } finally {
      Harness.deleteQuietly(tmp);
    }
  }

  /**
   * Navigates to the dashboard's {@code level} over the last {@code hours}, {@code runs} + 1 times,
   * and prints each navigation's figures and the warm runs' median. {@code endMs} 0: the window
   * ends now ({@code range=Nh}); else at {@code endMs} as {@code range=Nh} would give it to a user
   * at that time (the end rounded up to the step), asked with {@code from}/{@code to}.
   */
  static void measure(Browser b, String base, String level, int hours, int runs, long endMs) {
    System.out.printf(
        Locale.ROOT,
        "level=%s, %d h, every panel loaded (lazy=0); load average %.2f:%n",
        level,
        hours,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    // the first navigation of the all level is the first of the process; of the next, of its level
    String first =
        !level.equals("all")
            ? "first of the level"
            : endMs > 0 ? "first after open" : "first after backfill";
    long rangeMs = hours * 3_600_000L;
    long stepMs = stepSeconds(rangeMs / 1000) * 1000;
    String page = base + "/dashboard?level=" + level + "&lazy=0";
    String url =
        endMs > 0
            ? page + window(Math.floorDiv(endMs + stepMs - 1, stepMs) * stepMs, rangeMs)
            : page + "&range=" + hours + "h";
    if (endMs > 0) {
      System.out.println("  " + url.substring(base.length()) + " (step " + stepMs / 1000 + " s)");
    }
    WebDriverWait wait = new WebDriverWait(b.driver, Duration.ofSeconds(300));
    List<Double> times = new ArrayList<>();
    boolean uncached = System.getProperty("ui.bench.uncached") != null;
    if (uncached) {
      System.out.println("  every run on a window of its own (off the step grid): no cache helps");
    }
    long anchor = endMs > 0 ? endMs : System.currentTimeMillis();
    for (int i = 0; i < runs + 1; i++) {
      b.driver.get("about:blank");
      long cpu0 = processCpuNanos();
      // a custom window is not aligned to the step: a new grid phase misses the results cache,
      // a new end misses the inventory
      b.driver.get(uncached ? page + window(anchor + 1_000 + i * 1_013L, rangeMs) : url);
      wait.until(d -> Boolean.TRUE.equals(b.js("return window.__dashboardDone === true")));
      double cpu = (processCpuNanos() - cpu0) / 1e9;
      String name = i > 0 ? "run " + i : first;
      times.add(report(b, name, cpu, i == 0 && endMs > 0 && !uncached ? stepMs : 0));
      List<String> errors = b.consoleErrors(); // reading empties the log: once
      if (!errors.isEmpty()) {
        System.out.println("console errors: " + errors);
      }
    }
    times.remove(0);
    times.sort(null);
    System.out.printf(
        Locale.ROOT,
        "median %.0f ms, min %.0f ms, max %.0f ms over %d warm runs%n",
        times.get(times.size() / 2),
        times.get(0),
        times.get(times.size() - 1),
        times.size());
  }

  /** The UI's custom window (from/to in ms). */
  private static String window(long toMs, long rangeMs) {
    return "&from=" + (toMs - rangeMs) + "&to=" + toMs;
  }

  /** The UI's step for a window ({@code state.js stepFor}): about 240 points, a readable step. */
  static long stepSeconds(long seconds) {
    long[] steps = {15, 30, 60, 90, 120, 300, 600, 900, 1800, 3600, 7200};
    double raw = seconds / 240.0;
    for (long s : steps) {
      if (s >= raw) {
        return s;
      }
    }
    return (long) Math.ceil(raw / 3600) * 3600;
  }

  /**
   * Prints the figures of the navigation just done; returns the time to the last panel drawn.
   * {@code stepMs} > 0: also the panels request's window, to check it is the one asked for.
   */
  private static double report(Browser b, String name, double cpuSeconds, long stepMs) {
    double ms = ((Number) b.js("return window.__lastPanelDrawnAt")).doubleValue();
    long panels = (Long) b.js("return document.querySelectorAll('[data-panel]').length");
    long drawn =
        (Long) b.js("return document.querySelectorAll('[data-panel][data-state=drawn]').length");
    long series =
        (Long)
            b.js(
                "let n=0;document.querySelectorAll('[data-panel]').forEach(e=>n+=+(e.dataset.series||0));return n");
    // Where the time went: the API's responses (server and transfer) against the page's own work.
    @SuppressWarnings("unchecked")
    List<Number> api =
        (List<Number>)
            b.js(
                "const r=performance.getEntriesByType('resource').filter(e=>e.name.includes('/api/v1/llm/'));"
                    + "return [r.length, Math.max(0,...r.map(e=>e.responseEnd)),"
                    + " r.reduce((a,e)=>a+e.decodedBodySize,0), Math.min(...r.map(e=>e.startTime))];");
    System.out.printf(
        Locale.ROOT,
        "%s: %.0f ms to the last of %d panels (%d with data, %d series); %d dashboard API"
            + " requests from %.0f ms, last answer at %.0f ms, %.1f MB of JSON; page work after it"
            + " %.0f ms; JVM CPU %.1f s%n",
        name,
        ms,
        panels,
        drawn,
        series,
        api.get(0).intValue(),
        api.get(3).doubleValue(),
        api.get(1).doubleValue(),
        api.get(2).doubleValue() / 1e6,
        ms - api.get(1).doubleValue(),
        cpuSeconds);
    if (stepMs > 0) {
      // the window the page asked for, as the panels request carries it
      System.out.println(
          "  panels request: "
              + b.js(
                  "const r=performance.getEntriesByType('resource')"
                      + ".find(e=>e.name.includes('/api/v1/llm/dashboard?'));"
                      + "if(!r)return 'none';const q=new URL(r.name).searchParams;"
                      + "return 'start='+q.get('start')+' end='+q.get('end')+' step='+q.get('step');"));
    }
    if (System.getProperty("ui.bench.resources") != null) {
      // each API request: start, first byte, last byte (ms from navigation), size
      System.out.println(
          "  "
              + b.js(
                  "return performance.getEntriesByType('resource')"
                      + ".filter(e=>e.name.includes('/api/'))"
                      + ".map(e=>e.name.replace(/^.*\\/api\\/v1\\//,'').slice(0,30)+' '"
                      + "+Math.round(e.startTime)+'/'+Math.round(e.responseStart)+'/'"
                      + "+Math.round(e.responseEnd)+' '+Math.round(e.transferSize/1e3)+'kB')"
                      + ".join('\\n  ')"));
    }
    return ms;
  }

  /**
   * CPU time of this JVM (server, its threads, JIT and GC; the Selenium client too, which is
   * small).
   */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** About {@code pods} inference pods in the default fleet's proportions. */
  static FleetConfig fleetOf(int pods) {
    int pd = 4;
    int sglang = pods / 5;
    int gateway = Math.max(1, pods / 50);
    int legacy = Math.max(1, pods / 25);
    int vllm = Math.max(1, pods - pd - sglang - gateway - legacy);
    return FleetConfig.builder()
        .seed(7)
        .vllmPods(vllm)
        .dataParallelPods(Math.max(1, vllm / 14))
        .legacyVllmPods(legacy)
        .sglangPods(sglang)
        .sglangGatewayPods(gateway)
        .prefillDecode(true)
        .build();
  }
}
