package dev.infermon.benchmarks.scrape;

import dev.infermon.config.scrape.GlobalConfig;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.model.labels.Labels;
import dev.infermon.scrape.Backfill;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.tsdb.TsdbOptions;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The ingest half of the scrape benchmark without HTTP: the pages of the simulated fleet that
 * {@code bench/scrape-vs-peers.sh} scrapes ({@code simulate --vllm-pods N --no-pd}: N vLLM pods
 * plus the default SGLang, legacy vLLM and dcgm-exporter targets), rendered ahead of time, then
 * parsed and appended through the scrape pipeline's own loop ({@link Backfill}) into a real {@link
 * Tsdb} (write-ahead log on), target after target as the live loops do, so every target's series
 * are cache-cold when it comes round again. Timed by the thread's CPU time per sample; the
 * collector's time is printed beside it (the collector runs on its own threads).
 *
 * <p>Run: {@code java -Xmx512m -XX:+UseSerialGC -cp benchmarks/target/benchmarks.jar
 * dev.infermon.benchmarks.scrape.ScrapeIngestCpuMain [pods=100] [pages=24] [rounds=30]} (the first
 * third of the rounds are warm-up).
 */
public final class ScrapeIngestCpuMain {
  private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";
  private static final long STEP_MS = 5_000;

  private ScrapeIngestCpuMain() {}

  public static void main(String[] args) throws IOException {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int pages = args.length > 1 ? Integer.parseInt(args[1]) : 24;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    long start = System.currentTimeMillis() - (long) rounds * pages * STEP_MS - 60_000;
    Fleet fleet =
        Fleet.create(FleetConfig.builder().vllmPods(pods).prefillDecode(false).build(), start);
    fleet.advanceTo(start + 600_000);
    List<PodInfo> inventory = fleet.inventory();
    List<Map<String, String>> snapshots = new ArrayList<>();
    fleet.replay(
        fleet.nowMillis() + pages * STEP_MS,
        Duration.ofMillis(STEP_MS),
        s -> snapshots.add(s.pages()));
    byte[][][] body = new byte[snapshots.size()][inventory.size()][];
    long bytes = 0;
    for (int k = 0; k < snapshots.size(); k++) {
      for (int i = 0; i < inventory.size(); i++) {
        String page = snapshots.get(k).get(inventory.get(i).name());
        body[k][i] = page == null ? null : page.getBytes(StandardCharsets.UTF_8);
        bytes += page == null ? 0 : body[k][i].length;
      }
    }
    System.out.printf(
        "%d targets, %d pages each, %.1f KB per page on average%n",
        inventory.size(), snapshots.size(), bytes / 1024.0 / snapshots.size() / inventory.size());

    Path dir = Files.createTempDirectory("scrape-ingest-bench");
    try (Tsdb db = Tsdb.open(dir, TsdbOptions.defaults())) {
      ScrapeConfig sc = ScrapeConfig.defaults("inference", GlobalConfig.DEFAULT);
      List<Backfill> targets = new ArrayList<>();
      for (int i = 0; i < inventory.size(); i++) {
        Labels.Builder lb = Labels.builder();
        inventory.get(i).targetLabels().forEach(lb::set);
        TargetGroup g =
            new TargetGroup(
                "bench/" + i,
                List.of(Labels.of("__address__", "127.0.0.1:" + (20_000 + i))),
                lb.build());
        targets.addAll(Backfill.targets(sc, g, db));
      }
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      long t = fleet.nowMillis();
      double best = Double.MAX_VALUE;
      List<Double> measured = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        long samples0 = db.headStats().samplesAppended();
        long gc0 = gcMillis();
        long cpu0 = mx.getCurrentThreadCpuTime();
        long wall0 = System.nanoTime();
        for (int k = 0; k < body.length; k++) {
          t += STEP_MS;
          for (int i = 0; i < targets.size(); i++) {
            if (body[k][i] == null) {
              targets.get(i).fail(t, "down");
            } else {
              targets.get(i).append(t, body[k][i], TEXT);
            }
          }
        }
        long cpu = mx.getCurrentThreadCpuTime() - cpu0;
        long wall = System.nanoTime() - wall0;
        long samples = db.headStats().samplesAppended() - samples0;
        double usPerSample = cpu / 1e3 / samples;
        boolean warm = r < rounds / 3;
        if (!warm) {
          measured.add(usPerSample);
          best = Math.min(best, usPerSample);
        }
        System.out.printf(
            "round %2d%s: %,d samples, %.3f us CPU per sample (%.2f M/CPU s), wall %.3f us,"
                + " GC %d ms%n",
            r,
            warm ? " (warm-up)" : "",
            samples,
            usPerSample,
            1 / usPerSample,
            wall / 1e3 / samples,
            gcMillis() - gc0);
      }
      measured.sort(null);
      System.out.printf(
          "median %.3f us CPU per sample (best %.3f) over %d measured rounds; head series %,d%n",
          measured.get(measured.size() / 2), best, measured.size(), db.headStats().series());
    }
  }

  private static long gcMillis() {
    long n = 0;
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, b.getCollectionTime());
    }
    return n;
  }
}
