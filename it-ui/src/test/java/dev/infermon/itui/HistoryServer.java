package dev.infermon.itui;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.backend.RollupWriter;
import dev.infermon.promql.backend.Rollups;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.web.WebOptions;
import dev.infermon.web.WebServer;
import dev.infermon.web.WebServices;
import java.io.IOException;
import java.nio.file.Files;
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
 * them. The targets page is empty here; {@link Harness} is the full process. {@link #open} serves a
 * history stored before ({@link StoredHistory}) as a restarted server would: the TSDB opened from
 * its blocks and write-ahead log, no ticker (the history stays as it was stored).
 */
final class HistoryServer implements AutoCloseable {
  /** The fleet replayed; null when the history was {@linkplain #open opened} from a directory. */
  final Fleet fleet;

  final long samples;
  private final Tsdb db;
  private final Tsdb rollupStore; // null: no rollups
  private final WebServer web;
  private final ScheduledExecutorService ticker; // null: a stored history, nothing appended

  private HistoryServer(
      Fleet fleet,
      long samples,
      Tsdb db,
      Tsdb rollupStore,
      WebServer web,
      ScheduledExecutorService ticker) {
    this.fleet = fleet;
    this.samples = samples;
    this.db = db;
    this.rollupStore = rollupStore;
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
      WebServer web = serve(db, null);
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
      return new HistoryServer(fleet, samples, db, null, web, ticker);
    } catch (Exception | Error e) {
      db.close();
      throw e;
    }
  }

  /**
   * Opens the TSDB in {@code dataDir} (blocks, write-ahead-log replay into the head: what a
   * restarted server does before it serves) and serves it. Where the history holds the dashboard's
   * rollups ({@code dataDir/rollups}, as {@code serve} keeps them), they are opened too and the
   * stack reads them, their writer's clock at {@code endMs} (its first run writes what is due and
   * sets the texts the reader answers for). Opening writes into {@code dataDir} (lock, a new log
   * segment, compactions): pass a copy.
   */
  static HistoryServer open(Path dataDir, long samples, long endMs, int scrapeSeconds)
      throws Exception {
    Tsdb db = Tsdb.open(dataDir);
    Tsdb store = null;
    try {
      Rollups rollups = null;
      if (Files.isDirectory(dataDir.resolve("rollups"))) {
        store = Tsdb.open(dataDir.resolve("rollups"));
        rollups = new Rollups(store, scrapeSeconds * 1000L);
        writer(rollups, db, store, endMs).advance();
      }
      return new HistoryServer(null, samples, db, store, serve(db, rollups), null);
    } catch (Exception | Error e) {
      if (store != null) {
        store.close();
      }
      db.close();
      throw e;
    }
  }

  /** The writer {@code serve} runs, over an engine of its own, its clock at {@code endMs}. */
  private static RollupWriter writer(Rollups rollups, Tsdb db, Tsdb store, long endMs) {
    QueryBackend raw = engine(db);
    DashboardService dashboard = new DashboardService(raw, Catalog.builtIn());
    return RollupWriter.standard(
        rollups,
        raw,
        () -> dashboard.defaultQueries(endMs, rollups.intervalMs()),
        () -> endMs,
        db::startTime,
        store::appendableMinTime,
        System.out::println);
  }

  private static QueryBackend engine(Tsdb db) {
    return new EmbeddedQueryBackend(
        db,
        new Engine(EngineOptions.DEFAULTS.withMaxSamples(200_000_000)),
        db::appendableMinTime,
        db);
  }

  /** The HTTP server over {@code db}: query stack, dashboard service, API and UI. */
  private static WebServer serve(Tsdb db, Rollups rollups) throws IOException {
    QueryBackend backend = QueryStack.of(engine(db), rollups);
    DashboardService dashboard = new DashboardService(backend, Catalog.builtIn());
    return WebServer.start(
        WebOptions.defaults("127.0.0.1:0"),
        WebServices.builder()
            .queries(() -> backend)
            .appendable(() -> db)
            .dashboard(() -> dashboard)
            .build());
  }

  String baseUrl() {
    return "http://127.0.0.1:" + web.port();
  }

  @Override
  public void close() {
    if (ticker != null) {
      ticker.shutdownNow();
      try {
        ticker.awaitTermination(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    web.close();
    if (rollupStore != null) {
      rollupStore.close();
    }
    db.close();
  }
}
