package dev.infermon.itui;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.QueryStack;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * infermon's HTTP server (API, LLM dashboard API, UI) over a TSDB holding a fleet's backfilled
 * history, kept current by appending the fleet's pages every step (as scraping would, without
 * HTTP): the stack the dashboard figure measures (UI, dashboard API, PromQL engine, TSDB),
 * assembled from the modules' public APIs so that it does not depend on how {@code serve} wires
 * them. The targets page is empty here; {@link Harness} is the full process.
 */
final class HistoryServer implements AutoCloseable {
  final Fleet fleet;
  final long samples;
  private final Tsdb db;
  private final WebServer web;
  private final ScheduledExecutorService ticker;

  private HistoryServer(
      Fleet fleet, long samples, Tsdb db, WebServer web, ScheduledExecutorService ticker) {
    this.fleet = fleet;
    this.samples = samples;
    this.db = db;
    this.web = web;
    this.ticker = ticker;
  }

  static HistoryServer start(FleetConfig config, Duration history, int stepSeconds, Path dir)
      throws Exception {
    long now = System.currentTimeMillis();
    Fleet fleet = Fleet.create(config, now - history.toMillis());
    // Kept open from backfill to serving: no write-ahead-log replay in between.
    Tsdb db = Tsdb.open(dir.resolve("data"));
    try {
      long samples =
          Backfill.run(fleet, db, now, Duration.ofSeconds(stepSeconds), p -> "sim:" + p.name());
      QueryBackend backend =
          QueryStack.of(
              new EmbeddedQueryBackend(
                  db,
                  new Engine(EngineOptions.DEFAULTS.withMaxSamples(200_000_000)),
                  db::appendableMinTime,
                  db));
      DashboardService dashboard = new DashboardService(backend, Catalog.builtIn());
      WebServer web =
          WebServer.start(
              WebOptions.defaults("127.0.0.1:0"),
              WebServices.builder()
                  .queries(() -> backend)
                  .appendable(() -> db)
                  .dashboard(() -> dashboard)
                  .build());
      ScheduledExecutorService ticker =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "history-ticker");
                t.setDaemon(true);
                return t;
              });
      Duration step = Duration.ofSeconds(stepSeconds);
      ticker.scheduleWithFixedDelay(
          () -> Backfill.run(fleet, db, System.currentTimeMillis(), step, p -> "sim:" + p.name()),
          stepSeconds,
          stepSeconds,
          TimeUnit.SECONDS);
      return new HistoryServer(fleet, samples, db, web, ticker);
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
    ticker.shutdownNow();
    try {
      ticker.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    web.close();
    db.close();
  }
}
