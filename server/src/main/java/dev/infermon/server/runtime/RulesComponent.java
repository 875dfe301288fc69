package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.llm.export.ExportService;
import dev.infermon.promql.engine.Engine;
import dev.infermon.rules.AlertAnnotator;
import dev.infermon.rules.EngineQueryFunction;
import dev.infermon.rules.QueryFunction;
import dev.infermon.rules.RuleGroupStatus;
import dev.infermon.tsdb.Tsdb;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rules and the notifier ({@link Alerting}). Rules need a query engine: an engine of their own on
 * the embedded TSDB, or in remote mode the process's query stack over the remote API ({@link
 * QueryEngine#backend()}); agent mode has neither and, as Prometheus's agent, evaluates no rules.
 * Rules evaluate instant queries, which the stack's results cache never keeps (it keeps final steps
 * of range queries only), so a rule never reads a cached answer of a range still changing; an
 * identical instant query in flight is joined, which answers the same. On the embedded TSDB the
 * rules keep an engine of their own, with the query engine's options, outside the stack (their
 * evaluations are not counted in {@code infermon_engine_queries_total}; in remote mode they are).
 *
 * <p>Active alerts carry their cause: the LLM layer's diagnosis annotates them at each evaluation
 * ({@code causes}, docs/alerting.md).
 *
 * <p>Reload: the rule files (and the {@code llm} alert pack) are read again and the notifier is
 * rebuilt when {@code alerting} changed; {@code global.external_labels} is refused (see {@link
 * Alerting#prepare}).
 */
final class RulesComponent implements Component {
  private static final Logger log = LoggerFactory.getLogger(RulesComponent.class);

  private final ServeSettings settings;
  private final AlertingMetrics metrics;
  private final Supplier<Tsdb> tsdb;
  private final QueryEngine engine;
  private final RemoteStorage storage;
  private final Supplier<String> externalUrl;
  private final ExportService exports;
  private final AlertAnnotator causes;
  private volatile Alerting alerting;

  RulesComponent(
      ServeSettings settings,
      AlertingMetrics metrics,
      Supplier<Tsdb> tsdb,
      QueryEngine engine,
      RemoteStorage storage,
      Supplier<String> externalUrl,
      ExportService exports,
      AlertAnnotator causes) {
    this.settings = settings;
    this.metrics = metrics;
    this.tsdb = tsdb;
    this.engine = engine;
    this.storage = storage;
    this.externalUrl = externalUrl;
    this.exports = exports;
    this.causes = causes;
  }

  @Override
  public String name() {
    return "alerting";
  }

  @Override
  public void start(Config cfg) {
    Tsdb db = tsdb.get();
    QueryFunction query;
    if (db != null) {
      query = new EngineQueryFunction(new Engine(engine.options()), db);
    } else if (engine.backend() != null) {
      query = new BackendQueryFunction(engine.backend());
    } else {
      if (!cfg.ruleFiles().isEmpty()) {
        log.warn(
            "storage.mode {} evaluates no rules; rule_files are ignored", cfg.storage().mode());
      }
      return;
    }
    alerting =
        Alerting.start(
            cfg,
            settings.alerting(),
            metrics,
            query,
            storage.storage(),
            externalUrl.get(),
            exports,
            causes);
  }

  @Override
  public void stop() {
    Alerting a = alerting;
    alerting = null;
    if (a != null) {
      a.close();
    }
  }

  @Override
  public Change prepare(Config current, Config next) throws Refused {
    Alerting a = alerting;
    return a == null ? Change.NONE : a.prepare(next);
  }

  /** Snapshots of every rule group; empty without rules. */
  List<RuleGroupStatus> status() {
    Alerting a = alerting;
    return a == null ? List.of() : a.status();
  }

  /** Alerts waiting to be sent; -1 without a notifier. */
  int queueLength() {
    Alerting a = alerting;
    return a == null ? -1 : a.queueLength();
  }
}
