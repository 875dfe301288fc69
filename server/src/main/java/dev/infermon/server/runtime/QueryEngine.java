package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.backend.Rollups;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.tsdb.Tsdb;
import java.util.function.Supplier;

/**
 * What answers PromQL: the embedded engine over the TSDB, or in remote mode the remote
 * Prometheus-compatible API; none in agent mode. The API, the LLM layer and rules in remote mode
 * query through {@link #backend()}: the process's one query stack ({@link QueryStack}: joining, the
 * pool, the results cache) over the counted evaluator ({@link InstrumentedQueryBackend}). The
 * embedded engine states which steps are final from the TSDB's appendable window, so the cache
 * keeps their range results; a remote API cannot tell, so the cache keeps nothing there.
 *
 * <p>Reload: the engine's options come from flags, except the default subquery step, which is
 * {@code global.evaluation_interval} (as in Prometheus) and, like the rules' default interval, is
 * set at start: a change to it is refused.
 */
final class QueryEngine implements Component {
  private final ServeSettings settings;
  private final Supplier<Tsdb> tsdb;
  private final Supplier<Tsdb> rollupStore;
  private volatile Rollups rollups;
  private final RemoteStorage remote;
  private final InstrumentedQueryBackend.Metrics metrics;
  private EngineOptions options;
  private volatile QueryBackend inner;
  private volatile QueryBackend backend;

  QueryEngine(
      ServeSettings settings,
      Supplier<Tsdb> tsdb,
      Supplier<Tsdb> rollupStore,
      RemoteStorage remote,
      InstrumentedQueryBackend.Metrics metrics) {
    this.settings = settings;
    this.tsdb = tsdb;
    this.rollupStore = rollupStore;
    this.remote = remote;
    this.metrics = metrics;
  }

  @Override
  public String name() {
    return "query-engine";
  }

  @Override
  public void start(Config cfg) {
    options =
        EngineOptions.DEFAULTS
            .withTimeout(settings.queryTimeout())
            .withMaxSamples(settings.queryMaxSamples())
            .withLookbackDelta(settings.lookbackDelta())
            .withDefaultSubqueryStep(cfg.global().evaluationInterval());
    Tsdb db = tsdb.get();
    inner =
        remote
            .remoteQueries()
            .orElseGet(
                () ->
                    db == null
                        ? null
                        : new EmbeddedQueryBackend(
                            db, new Engine(options), db::appendableMinTime, db));
    Tsdb store = rollupStore.get();
    // rollups over the embedded engine only: a remote API's answers are not stored here
    rollups =
        store == null || db == null || remote.remoteQueries().isPresent()
            ? null
            : new Rollups(store, cfg.global().scrapeInterval().toMillis());
    backend =
        inner == null ? null : QueryStack.of(new InstrumentedQueryBackend(inner, metrics), rollups);
  }

  /** The dashboard's stored answers, read by the stack; null when off or not embedded. */
  Rollups rollups() {
    return rollups;
  }

  @Override
  public void stop() {
    backend = null;
    inner = null;
    rollups = null;
  }

  @Override
  public Change prepare(Config current, Config next) throws Refused {
    if (inner != null
        && !next.global().evaluationInterval().equals(current.global().evaluationInterval())) {
      throw new Refused(
          "global.evaluation_interval",
          "the query engine's default subquery step and the rules' default interval are set at"
              + " start");
    }
    return Change.NONE;
  }

  /** The engine's options (rules on the embedded TSDB run an engine of their own with them). */
  EngineOptions options() {
    return options;
  }

  /** The evaluator, without the stack; null in agent mode, before start and after stop. */
  QueryBackend inner() {
    return inner;
  }

  /**
   * The query stack the API, the LLM layer and rules in remote mode query; null when {@link
   * #inner()} is.
   */
  QueryBackend backend() {
    return backend;
  }
}
