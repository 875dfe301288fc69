package dev.infermon.lint;

import dev.infermon.lint.checks.Reference;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.LiveScrape;
import dev.infermon.llm.inventory.StoredInventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.storage.testing.MemoryStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Endpoints to lint against, from the simulator: each target's page rendered after some simulated
 * traffic and inventoried as a live scrape would ({@link LiveScrape#fromPage}), without HTTP.
 */
public final class SimulatedEndpoints {
  static final long START = 1_780_000_000_000L;

  private SimulatedEndpoints() {}

  /**
   * The lint corpus's fleet: current vLLM (one data-parallel pod), vLLM 0.11, SGLang only through
   * its gateway ({@code sglang_} names), and dcgm-exporter.
   */
  public static FleetConfig corpusFleet() {
    return FleetConfig.builder()
        .vllmPods(2)
        .dataParallelPods(1)
        .legacyVllmPods(1)
        .sglangPods(0)
        .sglangGatewayPods(1)
        .prefillDecode(false)
        .build();
  }

  /** The inventory of every target of {@code config} after {@code traffic} of simulated time. */
  public static Inventory inventory(FleetConfig config, Duration traffic) {
    Fleet fleet = Fleet.create(config, START);
    fleet.advance(traffic);
    LiveScrape scrape = new LiveScrape(Catalog.builtIn(), Duration.ofSeconds(1));
    List<TargetInventory> targets = new ArrayList<>();
    for (PodInfo p : fleet.inventory()) {
      Optional<String> page = fleet.render(p.name());
      if (page.isEmpty()) {
        continue;
      }
      try {
        TargetInventory t =
            scrape.fromPage(
                p.name(), page.get().getBytes(StandardCharsets.UTF_8), "text/plain; version=0.0.4");
        targets.add(
            new TargetInventory(
                Map.of("instance", p.name(), "pod", p.name()), true, t.detection(), t.families()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new Inventory(targets);
  }

  /** The corpus's live reference. */
  public static Reference corpusReference() {
    return Reference.of(
        Catalog.builtIn(), inventory(corpusFleet(), Duration.ofMinutes(10)), Reference.Mode.LIVE);
  }

  /**
   * Real captures ({@code ../shared/fixtures}, copied into the simulator's test-jar) as endpoints:
   * each page inventoried as a live scrape of it would be, one target per capture.
   */
  public static Reference captureReference(List<Captures.Entry> captures) {
    LiveScrape scrape = new LiveScrape(Catalog.builtIn(), Duration.ofSeconds(1));
    List<TargetInventory> targets = new ArrayList<>();
    for (Captures.Entry c : captures) {
      try {
        TargetInventory t = scrape.fromPage(c.path(), c.bytes(), "text/plain; version=0.0.4");
        targets.add(
            new TargetInventory(
                Map.of("instance", c.fileName(), "pod", c.fileName()),
                true,
                t.detection(),
                t.families()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return Reference.of(Catalog.builtIn(), new Inventory(targets), Reference.Mode.LIVE);
  }

  /**
   * The corpus's fleet scraped into storage for {@code traffic} (every 15 s, target labels as the
   * inference discovery sets them) and read back as the stored reference reads a store: through a
   * {@link QueryBackend}, over the last hour.
   */
  public static Reference storedReference(FleetConfig config, Duration traffic) {
    Fleet fleet = Fleet.create(config, START);
    MemoryStorage storage = new MemoryStorage();
    new FleetScrape(storage, false).run(fleet, traffic);
    QueryBackend backend = new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
    Inventory inv =
        new StoredInventory(Catalog.builtIn()).read(backend, fleet.nowMillis(), 3_600_000L);
    return Reference.of(Catalog.builtIn(), inv, Reference.Mode.STORED);
  }
}
