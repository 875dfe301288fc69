package dev.infermon.llm;

import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A simulated fleet scraped into a {@link MemoryStorage} by the simulator's {@link FleetScrape}
 * with honor_labels=false: dcgm-exporter pages stored either with their own {@code pod}/{@code
 * namespace} or, as a Prometheus with honor_labels=false stores them beside target labels of the
 * same names, as {@code exported_pod}/{@code exported_namespace} ({@code exportedDcgmLabels}).
 * Queried through the {@link EmbeddedQueryBackend}, as a remote Prometheus would be.
 */
final class SimulatedFleet {
  static final long START = 1_780_000_000_000L;

  final Fleet fleet;
  final MemoryStorage storage = new MemoryStorage();
  final QueryBackend backend =
      new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
  private final boolean exportedDcgmLabels;
  private final Function<PodInfo, Map<String, String>> relabel;

  SimulatedFleet(FleetConfig config, boolean exportedDcgmLabels) {
    this(config, exportedDcgmLabels, FleetScrape::targetLabels);
  }

  /**
   * With each pod's target labels from {@code relabel} instead of the inventory's: a fleet labelled
   * as a real deployment's discovery labels it (NVIDIA Dynamo's operator labels, say).
   */
  SimulatedFleet(
      FleetConfig config,
      boolean exportedDcgmLabels,
      Function<PodInfo, Map<String, String>> relabel) {
    this.fleet = Fleet.create(config, START);
    this.exportedDcgmLabels = exportedDcgmLabels;
    this.relabel = relabel;
  }

  /**
   * Steps the fleet for {@code d}, scraping every target at every step; {@code observe} runs after
   * each.
   */
  SimulatedFleet run(Duration d, Consumer<Fleet.Snapshot> observe) {
    new FleetScrape(storage, false, this::targetLabels).run(fleet, d, observe);
    return this;
  }

  /** As {@link #run(Duration, Consumer)}, each page replaced by what {@code pages} makes of it. */
  SimulatedFleet run(Duration d, java.util.function.BiFunction<PodInfo, String, String> pages) {
    new FleetScrape(storage, false, this::targetLabels).pages(pages).run(fleet, d, s -> {});
    return this;
  }

  SimulatedFleet run(Duration d) {
    return run(d, s -> {});
  }

  long now() {
    return fleet.nowMillis();
  }

  Map<String, String> targetLabels(PodInfo info) {
    Map<String, String> t = relabel.apply(info);
    if (info.backend().gpuExporter() && exportedDcgmLabels) {
      t.put("namespace", info.namespace());
      t.put("pod", info.name());
    }
    return t;
  }

  static List<String> names(List<PodInfo> infos) {
    List<String> out = new ArrayList<>();
    infos.forEach(i -> out.add(i.name()));
    return out;
  }
}
