package dev.infermon.itui;

import dev.infermon.simulator.FleetConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 */
public final class UiDashboardBench {
  private UiDashboardBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].startsWith("http")) {
      // measure again against a server already running (hours, runs)
      try (Browser b = Browser.start(1440, 1000, false)) {
        measure(b, args[0], "all", Integer.parseInt(args[1]), Integer.parseInt(args[2]));
        measure(b, args[0], "model", Integer.parseInt(args[1]), Integer.parseInt(args[2]));
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
      measure(b, h.baseUrl(), "all", hours, runs);
      measure(b, h.baseUrl(), "model", hours, runs);
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

  static void measure(Browser b, String base, String level, int hours, int runs) {
    System.out.println("level=" + level + ", " + hours + " h, every panel loaded (lazy=0):");
    String url = base + "/dashboard?level=" + level + "&range=" + hours + "h&lazy=0";
    WebDriverWait wait = new WebDriverWait(b.driver, Duration.ofSeconds(300));
    List<Double> times = new ArrayList<>();
    boolean uncached = System.getProperty("ui.bench.uncached") != null;
    if (uncached) {
      System.out.println("  every run on a window of its own (off the step grid): no cache helps");
    }
    for (int i = 0; i < runs + 1; i++) {
      b.driver.get("about:blank");
      if (uncached) {
        // a custom window is not aligned to the step: a new grid phase misses the results cache,
        // a new end misses the inventory
        long to = System.currentTimeMillis() + 1_000 + i * 1_013L;
        b.driver.get(
            base
                + "/dashboard?level="
                + level
                + "&from="
                + (to - hours * 3_600_000L)
                + "&to="
                + to
                + "&lazy=0");
      } else {
        b.driver.get(url);
      }
      wait.until(d -> Boolean.TRUE.equals(b.js("return window.__dashboardDone === true")));
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
                      + " r.reduce((a,e)=>a+e.transferSize,0), Math.min(...r.map(e=>e.startTime))];");
      System.out.printf(
          Locale.ROOT,
          "%s: %.0f ms to the last of %d panels (%d with data, %d series); %d dashboard API"
              + " requests from %.0f ms, last answer at %.0f ms, %.1f MB; page work after it %.0f ms%n",
          i == 0 ? "first (cold cache)" : "run " + i,
          ms,
          panels,
          drawn,
          series,
          api.get(0).intValue(),
          api.get(3).doubleValue(),
          api.get(1).doubleValue(),
          api.get(2).doubleValue() / 1e6,
          ms - api.get(1).doubleValue());
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
      if (i > 0) {
        times.add(ms);
      }
      if (!b.consoleErrors().isEmpty()) {
        System.out.println("console errors: " + b.consoleErrors());
      }
    }
    times.sort(null);
    System.out.printf(
        Locale.ROOT,
        "median %.0f ms, min %.0f ms, max %.0f ms over %d warm runs%n",
        times.get(times.size() / 2),
        times.get(0),
        times.get(times.size() - 1),
        times.size());
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
