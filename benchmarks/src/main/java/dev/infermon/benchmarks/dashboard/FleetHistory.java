package dev.infermon.benchmarks.dashboard;

import dev.infermon.promql.backend.Rollups;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.tsdb.Tsdb;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/**
 * A fleet's history in a TSDB directory, built once and reused: the fleet of the UI benchmark
 * ({@code it-ui}'s {@code UiDashboardBench.fleetOf}, the same proportions) replayed for {@code
 * hours} at one scrape interval with the target labels infermon's scrape would attach (as {@code
 * it-ui}'s {@code Backfill}), compacted and closed, so that a measuring process opens it as a
 * restarted server would; with the dashboard's stored answers in {@code data/rollups}, written
 * through {@code serve}'s own catch-up ({@link HistoryRollups}). {@code history.properties} records
 * what was built and its end time; a directory built with other parameters, or before the rollups
 * (no {@code rollups=true}), is refused.
 */
final class FleetHistory {
  private static final String MARKER = "history.properties";

  final int pods;
  final int hours;
  final int scrapeSeconds;
  final long endMs;
  final long samples;

  private FleetHistory(int pods, int hours, int scrapeSeconds, long endMs, long samples) {
    this.pods = pods;
    this.hours = hours;
    this.scrapeSeconds = scrapeSeconds;
    this.endMs = endMs;
    this.samples = samples;
  }

  /** The history built in {@code dir}, whatever its parameters, or null when none is there. */
  static FleetHistory read(Path dir) throws IOException {
    Path marker = dir.resolve(MARKER);
    if (!Files.exists(marker)) {
      return null;
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(marker)) {
      p.load(in);
    }
    return new FleetHistory(
        Integer.parseInt(p.getProperty("pods")),
        Integer.parseInt(p.getProperty("hours")),
        Integer.parseInt(p.getProperty("scrapeSeconds")),
        Long.parseLong(p.getProperty("endMs")),
        Long.parseLong(p.getProperty("samples")));
  }

  /** The history built in {@code dir}, if one is there; refused when its parameters differ. */
  static FleetHistory existing(Path dir, int pods, int hours, int scrapeSeconds)
      throws IOException {
    FleetHistory h = read(dir);
    if (h == null) {
      return null;
    }
    if (!"true".equals(rollupsOf(dir))) {
      throw new IllegalArgumentException(
          dir
              + " was built before the dashboard's rollups (no rollups=true in "
              + MARKER
              + "): delete it, or use another -Ddashload.dir, and build it again");
    }
    if (h.pods != pods || h.hours != hours || h.scrapeSeconds != scrapeSeconds) {
      throw new IllegalArgumentException(
          dir
              + " holds "
              + h.pods
              + " pods x "
              + h.hours
              + " h at "
              + h.scrapeSeconds
              + " s, not what was asked: use another -Ddashload.dir");
    }
    return h;
  }

  private static String rollupsOf(Path dir) throws IOException {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(dir.resolve(MARKER))) {
      p.load(in);
    }
    return p.getProperty("rollups");
  }

  /**
   * Replays the fleet into a new TSDB in {@code dir}, writes the dashboard's rollups through the
   * server's catch-up, compacts both and closes them.
   */
  static FleetHistory build(Path dir, int pods, int hours, int scrapeSeconds)
      throws IOException, InterruptedException {
    long end = System.currentTimeMillis() / 1000 * 1000;
    Fleet fleet = Fleet.create(fleetOf(pods), end - Duration.ofHours(hours).toMillis());
    long samples;
    try (Tsdb db = Tsdb.open(dir.resolve("data"))) {
      samples = replay(fleet, db, end, Duration.ofSeconds(scrapeSeconds));
      db.compact();
      try (Tsdb store = HistoryRollups.open(dir.resolve("data"))) {
        Rollups rollups = new Rollups(store, scrapeSeconds * 1000L);
        long t0 = System.nanoTime();
        long steps = HistoryRollups.writer(rollups, db, store, end).advance();
        store.compact();
        System.out.printf(
            java.util.Locale.ROOT,
            "rollups: %d queries, %,d query steps written in %.1f s%n",
            rollups.queries().size(),
            steps,
            (System.nanoTime() - t0) / 1e9);
      }
    }
    FleetHistory h = new FleetHistory(pods, hours, scrapeSeconds, end, samples);
    Properties p = new Properties();
    p.setProperty("pods", Integer.toString(pods));
    p.setProperty("hours", Integer.toString(hours));
    p.setProperty("scrapeSeconds", Integer.toString(scrapeSeconds));
    p.setProperty("endMs", Long.toString(end));
    p.setProperty("samples", Long.toString(samples));
    p.setProperty("rollups", "true");
    try (OutputStream out = Files.newOutputStream(dir.resolve(MARKER))) {
      p.store(out, "the dashboard load benchmark's fleet history");
    }
    return h;
  }

  /** About {@code pods} inference pods in the default fleet's proportions (UiDashboardBench). */
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

  /** The fleet's pages as the generated scrape config labels them ({@code instance=sim:<pod>}). */
  private static long replay(Fleet fleet, Tsdb db, long untilMs, Duration step) {
    return new FleetScrape(db, false, FleetScrape.scrapeConfigLabels(p -> "sim:" + p.name()))
        .run(fleet, Duration.ofMillis(untilMs - fleet.nowMillis()), step, snap -> {});
  }
}
