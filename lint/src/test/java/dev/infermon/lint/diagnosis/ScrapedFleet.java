package dev.infermon.lint.diagnosis;

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
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A simulated fleet scraped into a {@link MemoryStorage} in simulated time, as infermon's scrape
 * layer stores it: each page parsed with textparse at every step, the target's labels attached
 * ({@code job}, {@code instance}, {@code namespace}, {@code pod}, {@code workload_name}, {@code
 * backend}, {@code role}), {@code up} written (0 while a pod restarts), GPU series keeping their
 * own {@code namespace}/{@code pod} (honor_labels). Queried only through the {@link
 * EmbeddedQueryBackend}, as diagnosis queries a remote Prometheus.
 */
final class ScrapedFleet {
  static final long START = 1_780_000_000_000L;
  static final Duration STEP = Duration.ofSeconds(15);

  final Fleet fleet;
  final MemoryStorage storage = new MemoryStorage();
  final QueryBackend backend =
      new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));

  ScrapedFleet(FleetConfig config) {
    this.fleet = Fleet.create(config, START);
  }

  /** Steps the fleet for {@code d}, scraping every target at every step. */
  ScrapedFleet run(Duration d) {
    fleet.replay(fleet.nowMillis() + d.toMillis(), STEP, this::ingest);
    return this;
  }

  long now() {
    return fleet.nowMillis();
  }

  private void ingest(Fleet.Snapshot snap) {
    Appender app = storage.appender();
    try {
      for (PodInfo info : fleet.inventory()) {
        Map<String, String> target = new LinkedHashMap<>(info.targetLabels());
        boolean dcgm = info.backend() == Backend.DCGM;
        target.put("job", dcgm ? "dcgm" : info.engine());
        target.put("instance", info.name() + ":" + (dcgm ? 9400 : 8000));
        String page = snap.pages().get(info.name());
        Labels.Builder up = Labels.builder().set("__name__", "up");
        target.forEach(up::set);
        app.append(0, up.build(), snap.timeMillis(), page == null ? 0 : 1);
        if (page != null) {
          append(app, page, target, snap.timeMillis());
        }
      }
      app.commit();
    } catch (Exception e) {
      app.rollback();
      throw new IllegalStateException(e);
    }
  }

  private static void append(Appender app, String page, Map<String, String> target, long t)
      throws Exception {
    ParserOptions o = ParserOptions.builder().conformance(Conformance.LENIENT).build();
    Parser p = Parsers.forFormat(Format.TEXT, o).parse(page.getBytes(StandardCharsets.UTF_8));
    for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
      if (e != Entry.SERIES) {
        continue;
      }
      Labels scraped = p.labels();
      Labels.Builder b = Labels.builder();
      target.forEach(b::set);
      // honor_labels: the page's own labels win (dcgm-exporter's namespace/pod)
      for (int i = 0; i < scraped.size(); i++) {
        b.set(scraped.name(i), scraped.value(i));
      }
      app.append(0, b.build(), t, p.value());
    }
  }
}
