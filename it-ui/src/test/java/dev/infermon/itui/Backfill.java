package dev.infermon.itui;

import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.storage.Appendable;
import dev.infermon.tsdb.Tsdb;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

/**
 * Writes a fleet's history into storage as if infermon had scraped every target every {@code step}
 * (the simulator's {@link FleetScrape}): the target labels the generated scrape config gives
 * ({@link FleetScrape#scrapeConfigLabels}, honor_labels=false), so the backfilled series continue
 * as the live ones.
 */
final class Backfill {
  private Backfill() {}

  /**
   * Replays {@code fleet} up to {@code untilMs} into a TSDB at {@code dir}; returns the samples.
   */
  static long run(
      Fleet fleet, Path dir, long untilMs, Duration step, Function<PodInfo, String> hostPort)
      throws IOException {
    try (Tsdb db = Tsdb.open(dir)) {
      return run(fleet, db, untilMs, step, hostPort);
    }
  }

  /** Replays {@code fleet} up to {@code untilMs} into {@code db}; returns the samples. */
  static long run(
      Fleet fleet, Appendable db, long untilMs, Duration step, Function<PodInfo, String> hostPort) {
    return new FleetScrape(db, false, FleetScrape.scrapeConfigLabels(hostPort))
        .run(fleet, Duration.ofMillis(Math.max(0, untilMs - fleet.nowMillis())), step, s -> {});
  }
}
