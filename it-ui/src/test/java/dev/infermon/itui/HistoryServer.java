package dev.infermon.itui;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.web.WebOptions;
import dev.infermon.web.WebServer;
import dev.infermon.web.WebServices;
import java.nio.file.Path;
import java.time.Duration;

/**
 * infermon's HTTP server (API, LLM dashboard API, UI) over a TSDB holding a fleet's backfilled
 * history, without scraping: the stack the dashboard figure measures (UI, dashboard API, PromQL
 * engine, TSDB), assembled from the modules' public APIs so that it does not depend on how {@code
 * serve} wires them. The targets page is empty here; {@link Harness} is the full process.
 */
final class HistoryServer implements AutoCloseable {
  final Fleet fleet;
  final long samples;
  private final Tsdb db;
  private final WebServer web;

  private HistoryServer(Fleet fleet, long samples, Tsdb db, WebServer web) {
    this.fleet = fleet;
    this.samples = samples;
    this.db = db;
    this.web = web;
  }

  static HistoryServer start(FleetConfig config, Duration history, int stepSeconds, Path dir)
      throws Exception {
    long now = System.currentTimeMillis();
    Fleet fleet = Fleet.create(config, now - history.toMillis());
    Path data = dir.resolve("data");
    long samples =
        Backfill.run(fleet, data, now, Duration.ofSeconds(stepSeconds), p -> "sim:" + p.name());
    Tsdb db = Tsdb.open(data);
    try {
      QueryBackend backend =
          new EmbeddedQueryBackend(
              db, new Engine(EngineOptions.DEFAULTS.withMaxSamples(200_000_000)));
      DashboardService dashboard = new DashboardService(backend, Catalog.builtIn());
      WebServer web =
          WebServer.start(
              WebOptions.defaults("127.0.0.1:0"),
              WebServices.builder()
                  .queries(() -> backend)
                  .appendable(() -> db)
                  .dashboard(() -> dashboard)
                  .build());
      return new HistoryServer(fleet, samples, db, web);
    } catch (Exception | Error e) {
      db.close();
      throw e;
    }
  }

  String baseUrl() {
    return "http://127.0.0.1:" + web.port();
  }

  @Override
  public void close() {
    web.close();
    db.close();
  }
}
