package dev.infermon.llm.diagnosis;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.testing.ReplayScrape;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * One real capture replayed as a live target ({@code simulate --replay}): its counters advancing at
 * the rates of a process up for {@link dev.infermon.simulator.replay.ReplayTarget#DEFAULT_UPTIME},
 * scraped every 15 s into a {@link MemoryStorage} for {@link #MINUTES} by the simulator's {@link
 * ReplayScrape}, the default alert pack evaluated every minute ({@link PackAlerts}), and the last
 * 30 minutes diagnosed by {@link DiagnosisService} at the end, as a user would when an alert fires.
 */
final class ReplayedCaptures {
  /** Longer than the longest {@code for} of the pack (15 m) plus its 5 m rate window. */
  static final int MINUTES = 25;

  static final long START = 1_780_000_000_000L;

  private ReplayedCaptures() {}

  static DiagnosisScenariosTest.Run run(String capture) {
    MemoryStorage storage = new MemoryStorage();
    ReplayFleet fleet = ReplayFleet.of(List.of(Captures.get(capture).target()), START);
    ReplayScrape scrape = new ReplayScrape(storage, true);
    PackAlerts pack = new PackAlerts(storage);
    long end = START + Duration.ofMinutes(MINUTES).toMillis();
    for (long t = START; t < end; t += 60_000) {
      long last = t + 60_000 - ReplayScrape.STEP.toMillis();
      scrape.run(fleet, t, last);
      pack.eval(last);
    }
    long at = end - ReplayScrape.STEP.toMillis();
    Diagnosis d =
        new DiagnosisService(
                new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)),
                Catalog.builtIn())
            .diagnose(
                new DiagnosisRequest(
                    OptionalLong.empty(),
                    OptionalLong.of(at),
                    OptionalLong.empty(),
                    OptionalLong.empty()));
    return new DiagnosisScenariosTest.Run(pack.firing(), d);
  }
}
