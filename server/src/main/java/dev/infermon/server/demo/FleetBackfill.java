package dev.infermon.server.demo;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.discovery.staticsd.StaticDiscoverer;
import dev.infermon.scrape.Backfill;
import dev.infermon.simulator.Fleet;
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
 * Writes the demo targets' history into storage as if infermon had scraped it all along: the
 * targets are stepped in time at the scrape interval ({@link DemoTargets#replay}: a simulated
 * fleet's model, or replayed captures' pages) and every page goes through {@link Backfill}, the
 * scrape pipeline's own ingest, with the targets the scrape configs make of the static targets; so
 * the backfilled series carry exactly the labels, report series and staleness of the live scrapes
 * that continue them. A target that is down at a step (a restarting pod) is recorded as a failed
 * scrape.
 *
 * <p>Not thread-safe; runs once, before the live scrapes start.
 */
final class FleetBackfill {
  private final DemoTargets targets;
  private final Map<String, Backfill> byUrl = new LinkedHashMap<>();
  private final Duration step;
  private final PrintWriter progress;
  private long pages;

  /** The simulated {@code fleet} served by {@code server}. */
  FleetBackfill(
      Fleet fleet,
      FleetServer server,
      List<ScrapeConfig> configs,
      Appendable storage,
      Duration step,
      PrintWriter progress) {
    this(new SimulatedTargets(fleet, server, false), configs, storage, step, progress);
  }

  /**
   * Matches every target to the backfill target of the scrape config that scrapes its URL.
   *
   * @throws IllegalStateException if a target is not scraped by any of {@code configs}
   */
  FleetBackfill(
      DemoTargets targets,
      List<ScrapeConfig> configs,
      Appendable storage,
      Duration step,
      PrintWriter progress) {
    this.targets = targets;
    this.step = step;
    this.progress = progress;
    Map<String, Backfill> scraped = new HashMap<>();
    for (ScrapeConfig sc : configs) {
      for (TargetGroup g : new StaticDiscoverer(sc.staticConfigs()).groups()) {
        for (Backfill b : Backfill.targets(sc, g, storage)) {
          scraped.put(b.url(), b);
        }
      }
    }
    for (String url : targets.urls()) {
      Backfill b = scraped.get(url);
      if (b == null) {
        throw new IllegalStateException("no scrape config scrapes " + url);
      }
      byUrl.put(url, b);
    }
  }

  /**
   * Replays the targets up to {@code until}, then keeps catching up with {@code clock} until less
   * than one step is missing (the replay itself takes seconds).
   *
   * @return the pages appended
   */
  long run(long until, LongSupplier clock) {
    long from = targets.nowMillis();
    long total = Math.max(1, until - from);
    long[] nextReport = {from + total / 10};
    targets.replay(
        until,
        step,
        (t, pagesByUrl) -> {
          append(t, pagesByUrl);
          if (t >= nextReport[0]) {
            progress.printf(
                "  backfilled %s of %s (%d%%)%n",
                human(t - from), human(total), (t - from) * 100 / total);
            progress.flush();
            nextReport[0] += total / 10;
          }
        });
    while (targets.nowMillis() + step.toMillis() <= clock.getAsLong()) {
      targets.replay(clock.getAsLong(), step, this::append);
    }
    return pages;
  }

  private void append(long t, Map<String, String> pagesByUrl) {
    for (Map.Entry<String, Backfill> e : byUrl.entrySet()) {
      String page = pagesByUrl.get(e.getKey());
      if (page == null) {
        e.getValue().fail(t, "server returned HTTP status 503 Service Unavailable");
      } else {
        e.getValue()
            .append(t, page.getBytes(StandardCharsets.UTF_8), targets.contentType(e.getKey()));
        pages++;
      }
    }
  }

  static String human(long ms) {
    long minutes = Math.round(ms / 60_000.0);
    return minutes >= 60 ? String.format("%dh%02dm", minutes / 60, minutes % 60) : minutes + "m";
  }
}
