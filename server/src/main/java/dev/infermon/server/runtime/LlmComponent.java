package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.promql.backend.RollupWriter;
import dev.infermon.promql.backend.Rollups;
import dev.infermon.tsdb.Tsdb;
import java.util.SortedSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The LLM layer bound to the query engine's stack ({@link LlmLayer}: dashboard, diagnosis, SLO and
 * lint services over one inventory; embedded or remote alike, the stack's joining, pool and results
 * cache shared with the API), and the {@code llm} section the API reads per request (quantiles,
 * SLOs).
 *
 * <p>Reload: the {@code llm} section takes effect from the next request on (the diagnosis's symptom
 * thresholds, {@code llm.alerts}, and the prices of {@code llm.cost} too); its alert pack and SLO
 * rules are the rules' ({@link RulesComponent}).
 */
final class LlmComponent implements Component {
  private static final Logger log = LoggerFactory.getLogger(LlmComponent.class);

  /** How often the rollups' list of queries is compiled again (the inventory is cached). */
  static final long ROLLUP_QUERIES_EVERY_MS = 60_000;

  private final LlmLayer layer;
  private final QueryEngine engine;
  private final Supplier<Tsdb> tsdb;
  private final Supplier<Tsdb> rollupStore;
  private volatile LlmConfig section;
  private ScheduledExecutorService rollupThread;

  LlmComponent(LlmLayer layer, QueryEngine engine) {
    this(layer, engine, () -> null, () -> null);
  }

  /** With the rollups' writer over the embedded TSDB and the rollups' store, when both are open. */
  LlmComponent(
      LlmLayer layer, QueryEngine engine, Supplier<Tsdb> tsdb, Supplier<Tsdb> rollupStore) {
    this.layer = layer;
    this.engine = engine;
    this.tsdb = tsdb;
    this.rollupStore = rollupStore;
  }

  @Override
  public String name() {
    return "llm";
  }

  @Override
  public void start(Config cfg) {
    section = cfg.llm();
    if (engine.backend() != null) {
      // diagnosis checks the symptoms of the alert pack as loaded: the section in effect
      layer.bind(
          engine.backend(), () -> section.alerts(), () -> section.cost(), () -> section.slos());
      startRollups();
    }
  }

  /**
   * The writer of the dashboard's stored answers, on a thread of its own: its first run is the
   * catch-up (from the last stored step, or {@link RollupWriter#REACH_MS} back), then one run per
   * scrape interval, {@link RollupWriter#LAG_INTERVALS} behind the clock so that a step's scrapes
   * are committed.
   */
  private void startRollups() {
    Rollups rollups = engine.rollups();
    Tsdb db = tsdb.get();
    Tsdb store = rollupStore.get();
    if (rollups == null || db == null || store == null || engine.inner() == null) {
      log.info(
          "rollups: off (rollups {}, tsdb {}, store {}, evaluator {})",
          rollups != null,
          db != null,
          store != null,
          engine.inner() != null);
      return;
    }
    log.info(
        "rollups: the dashboard's default queries stored every {} s into {}",
        rollups.intervalMs() / 1000,
        store.dir());
    long iv = rollups.intervalMs();
    DashboardService dashboard = layer.dashboard();
    Supplier<SortedSet<String>> queries =
        new Supplier<>() {
          private long readAt;
          private SortedSet<String> texts; // null until the first read

          @Override
          public SortedSet<String> get() {
            long now = System.currentTimeMillis();
            if (texts == null || now - readAt >= ROLLUP_QUERIES_EVERY_MS) {
              texts = dashboard.defaultQueries(now, iv);
              readAt = now;
            }
            return texts;
          }
        };
    RollupWriter writer =
        RollupWriter.standard(
            rollups,
            engine.inner(),
            queries,
            System::currentTimeMillis,
            db::startTime,
            store::appendableMinTime,
            log::info);
    rollupThread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "rollups");
              t.setDaemon(true);
              return t;
            });
    rollupThread.scheduleWithFixedDelay(
        () -> {
          try {
            long n = writer.advance();
            log.debug("rollups: {} query steps written", n);
          } catch (RuntimeException | Error e) {
            log.warn("rollups: a run failed; the next one tries again", e);
          }
        },
        0,
        iv,
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void stop() {
    ScheduledExecutorService t = rollupThread;
    rollupThread = null;
    if (t != null) {
      t.shutdownNow();
      try {
        t.awaitTermination(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    layer.unbind();
  }

  @Override
  public Change prepare(Config current, Config next) {
    LlmConfig n = next.llm();
    return n.equals(section) ? Change.NONE : () -> section = n;
  }

  /** The {@code llm} section in effect. */
  LlmConfig section() {
    return section;
  }
}
