package dev.infermon.llm;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import dev.infermon.textparse.Conformance;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.Format;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A simulated fleet scraped into a {@link MemoryStorage} the way infermon's scrape layer would:
 * every page parsed with textparse at each step, target labels attached ({@code job}, {@code
 * instance} and the inventory's labels), {@code up} written, and dcgm-exporter pages stored either
 * with their own {@code pod}/{@code namespace} (honor_labels) or, as a Prometheus with
 * honor_labels=false stores them, as {@code exported_pod}/{@code exported_namespace} beside the
 * exporter's own target labels. Queried through the {@link EmbeddedQueryBackend}, as a remote
 * Prometheus would be.
 */
final class SimulatedFleet {
  static final long START = 1_780_000_000_000L;
  static final Duration STEP = Duration.ofSeconds(15);

  final Fleet fleet;
  final MemoryStorage storage = new MemoryStorage();
  final QueryBackend backend =
      new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
  private final boolean exportedDcgmLabels;

  SimulatedFleet(FleetConfig config, boolean exportedDcgmLabels) {
    this.fleet = Fleet.create(config, START);
    this.exportedDcgmLabels = exportedDcgmLabels;
  }

  /**
   * Steps the fleet for {@code d}, scraping every target at every step; {@code observe} runs after
   * each.
   */
  SimulatedFleet run(Duration d, Consumer<Fleet.Snapshot> observe) {
    fleet.replay(
        fleet.nowMillis() + d.toMillis(),
        STEP,
        snap -> {
          ingest(snap);
          observe.accept(snap);
        });
    return this;
  }

  SimulatedFleet run(Duration d) {
    return run(d, s -> {});
  }

  long now() {
    return fleet.nowMillis();
  }

  private void ingest(Fleet.Snapshot snap) {
    Appender app = storage.appender();
    try {
      for (PodInfo info : fleet.inventory()) {
        Map<String, String> target = targetLabels(info);
        String page = snap.pages().get(info.name());
        Labels up = labels("up", target, Map.of());
        app.append(0, up, snap.timeMillis(), page == null ? 0 : 1);
        if (page != null) {
          appendPage(app, page, target, info.backend() == Backend.DCGM, snap.timeMillis());
        }
      }
      app.commit();
    } catch (Exception e) {
      app.rollback();
      throw new IllegalStateException(e);
    }
  }

  Map<String, String> targetLabels(PodInfo info) {
    Map<String, String> t = new java.util.LinkedHashMap<>(info.targetLabels());
    t.put("job", info.backend() == Backend.DCGM ? "dcgm" : info.engine());
    t.put("instance", info.name() + ":" + (info.backend() == Backend.DCGM ? 9400 : 8000));
    if (info.backend() == Backend.DCGM && exportedDcgmLabels) {
      t.put("namespace", info.namespace());
      t.put("pod", info.name());
    }
    return t;
  }

  private void appendPage(
      Appender app, String page, Map<String, String> target, boolean dcgm, long t)
      throws Exception {
    ParserOptions o = ParserOptions.builder().conformance(Conformance.LENIENT).build();
    Parser p = Parsers.forFormat(Format.TEXT, o).parse(page.getBytes(StandardCharsets.UTF_8));
    for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
      if (e != Entry.SERIES) {
        continue;
      }
      Labels scraped = p.labels();
      Labels.Builder b = Labels.builder();
      for (int i = 0; i < scraped.size(); i++) {
        String name = scraped.name(i);
        // honor_labels=false: a scraped label that collides with a target label is kept as
        // exported_*
        if (target.containsKey(name)) {
          name = "exported_" + name;
        }
        b.set(name, scraped.value(i));
      }
      target.forEach(b::set);
      app.append(0, b.build(), t, p.value());
    }
  }

  private static Labels labels(String name, Map<String, String> target, Map<String, String> extra) {
    Labels.Builder b = Labels.builder().set("__name__", name);
    target.forEach(b::set);
    extra.forEach(b::set);
    return b.build();
  }

  static List<String> names(List<PodInfo> infos) {
    List<String> out = new ArrayList<>();
    infos.forEach(i -> out.add(i.name()));
    return out;
  }
}
