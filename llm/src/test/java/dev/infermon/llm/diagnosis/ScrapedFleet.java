package dev.infermon.llm.diagnosis;

import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.function.LongConsumer;

/**
 * A simulated fleet scraped into a {@link MemoryStorage} in simulated time by the simulator's
 * {@link FleetScrape}: the target's labels attached ({@code job}, {@code instance}, {@code
 * namespace}, {@code pod}, {@code workload_name}, {@code backend}, {@code role}), {@code up}
 * written (0 while a pod restarts), GPU series keeping their own {@code namespace}/{@code pod}
 * (honor_labels). Queried only through the {@link EmbeddedQueryBackend}, as diagnosis queries a
 * remote Prometheus.
 */
final class ScrapedFleet {
  static final long START = 1_780_000_000_000L;

  final Fleet fleet;
  final MemoryStorage storage = new MemoryStorage();
  final QueryBackend backend =
      new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));

  ScrapedFleet(FleetConfig config) {
    this.fleet = Fleet.create(config, START);
  }

  /** Steps the fleet for {@code d}, scraping every target at every step. */
  ScrapedFleet run(Duration d) {
    return run(d, t -> {});
  }

  /** As {@link #run(Duration)}; {@code afterStep} gets each step's time once it is stored. */
  ScrapedFleet run(Duration d, LongConsumer afterStep) {
    new FleetScrape(storage, true).run(fleet, d, snap -> afterStep.accept(snap.timeMillis()));
    return this;
  }

  long now() {
    return fleet.nowMillis();
  }
}
