package dev.infermon.server.demo;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.discovery.staticsd.StaticDiscoverer;
import dev.infermon.scrape.Backfill;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.storage.Appendable;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Writes a fleet's history into storage as if infermon had scraped it all along: the fleet is
 * stepped in simulated time at the scrape interval ({@link Fleet#replay}) and every page goes
 * through {@link Backfill}, the scrape pipeline's own ingest, with the targets the scrape configs
 * make of the fleet's static targets; so the backfilled series carry exactly the labels, report
 * series and staleness of the live scrapes that continue them. A target that is down at a step (a
 * restarting pod) is recorded as a failed scrape.
 *
 * <p>Not thread-safe; runs once, before the live scrapes start.
 */
final class FleetBackfill {
  private final Fleet fleet;
  private final Map<String, Backfill> byTarget = new LinkedHashMap<>();
  private final Duration step;
  private final PrintWriter progress;
  private long pages;

  /**
   * Matches every fleet target to the backfill target of the scrape config that scrapes its URL.
   *
   * @throws IllegalStateException if a fleet target is not scraped by any of {@code configs}
   */
  FleetBackfill(
      Fleet fleet,
      FleetServer server,
      List<ScrapeConfig> configs,
      Appendable storage,
      Duration step,
      PrintWriter progress) {
    this.fleet = fleet;
    this.step = step;
    this.progress = progress;
    Map<String, Backfill> byUrl = new HashMap<>();
    for (ScrapeConfig sc : configs) {
      for (TargetGroup g : new StaticDiscoverer(sc.staticConfigs()).groups()) {
        for (Backfill b : Backfill.targets(sc, g, storage)) {
          byUrl.put(b.url(), b);
        }
      }
    }
    for (PodInfo p : fleet.inventory()) {
      Backfill b = byUrl.get(server.url(p));
      if (b == null) {
        throw new IllegalStateException("no scrape config scrapes " + server.url(p));
      }
      byTarget.put(p.name(), b);
    }
  }

  /**
   * Replays the fleet up to {@code until}, then keeps catching up with {@code clock} until less
   * than one step is missing (the replay itself takes seconds).
   *
   * @return the pages appended
   */
  long run(long until, LongSupplier clock) {
    long from = fleet.nowMillis();
    long total = Math.max(1, until - from);
    long[] nextReport = {from + total / 10};
    fleet.replay(
        until,
        step,
        snap -> {
          append(snap);
          if (snap.timeMillis() >= nextReport[0]) {
            progress.printf(
                "  backfilled %s of %s (%d%%)%n",
                human(snap.timeMillis() - from),
                human(total),
                (snap.timeMillis() - from) * 100 / total);
            progress.flush();
            nextReport[0] += total / 10;
          }
        });
    while (fleet.nowMillis() + step.toMillis() <= clock.getAsLong()) {
      fleet.replay(clock.getAsLong(), step, this::append);
    }
    return pages;
  }

  private void append(Fleet.Snapshot snap) {
    for (Map.Entry<String, Backfill> e : byTarget.entrySet()) {
      String page = snap.pages().get(e.getKey());
      if (page == null) {
        e.getValue().fail(snap.timeMillis(), "server returned HTTP status 503 Service Unavailable");
      } else {
        e.getValue()
            .append(
                snap.timeMillis(), page.getBytes(StandardCharsets.UTF_8), FleetServer.CONTENT_TYPE);
        pages++;
      }
    }
  }

  static String human(long ms) {
    long minutes = Math.round(ms / 60_000.0);
    return minutes >= 60 ? String.format("%dh%02dm", minutes / 60, minutes % 60) : minutes + "m";
  }
}
