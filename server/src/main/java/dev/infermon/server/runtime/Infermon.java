package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.ConfigResult;
import dev.infermon.config.app.StorageConfig;
import dev.infermon.config.app.WebConfigFile;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.config.yaml.Problem;
import dev.infermon.discovery.DiscoveryManager;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.rules.EngineQueryFunction;
import dev.infermon.rules.QueryFunction;
import dev.infermon.rules.RuleGroupStatus;
import dev.infermon.scrape.ScrapeManager;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Storage;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.tsdb.TsdbOptions;
import dev.infermon.web.BuildInfo;
import dev.infermon.web.WebServer;
import dev.infermon.web.WebServices;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running process: configuration, HTTP server, storage, query engine, rules and notifier,
 * scraping and discovery, started in that order and stopped in reverse (the HTTP server first stops
 * serving the API, and is closed before the storage so no request reads a closed database).
 *
 * <p>The HTTP server listens before the storage opens, so {@code /-/healthy} and {@code /metrics}
 * answer while the write-ahead log replays; {@code /-/ready} and the API answer 503 until then.
 *
 * <p>Threading: {@link #reload()} and {@link #close()} may be called from any thread (SIGHUP, the
 * {@code /-/reload} endpoint, a shutdown hook); they are serialized.
 */
public final class Infermon implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Infermon.class);

  private final ServeSettings settings;
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final AtomicReference<Config> config = new AtomicReference<>();
  private final AtomicReference<QueryBackend> queries = new AtomicReference<>();
  private final LlmLayer llm = new LlmLayer();
  private final AtomicReference<Appendable> appendable = new AtomicReference<>();
  private final AtomicReference<Tsdb> tsdb = new AtomicReference<>();
  private final AtomicReference<ScrapeManager> scrape = new AtomicReference<>();
  private final AtomicReference<RemoteStorage> remote = new AtomicReference<>();
  private final AtomicReference<Alerting> alerting = new AtomicReference<>();
  private BeforeScrape beforeScrape = BeforeScrape.NONE;
  private Optional<WebConfigFile> webFile = Optional.empty();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private WebServer web;
  private DiscoveryManager discovery;
  private HeapTrim heapTrim;
  private boolean closed;

  private Infermon(ServeSettings settings, Config initial) {
    this.settings = settings;
    this.config.set(initial);
  }

  /**
   * Loads the configuration and starts every component. On failure, whatever started is stopped
   * again before the exception propagates.
   *
   * @throws ConfigException when the configuration is invalid
   * @throws IOException when the port cannot be bound or the storage cannot be opened
   */
  public static Infermon start(ServeSettings settings, String version)
      throws ConfigException, IOException {
    return start(settings, version, BeforeScrape.NONE);
  }

  /**
   * Like {@link #start(ServeSettings, String)}, calling {@code beforeScrape} once the storage is
   * open and before rules, scraping and discovery start (the demo backfills history there).
   */
  public static Infermon start(ServeSettings settings, String version, BeforeScrape beforeScrape)
      throws ConfigException, IOException {
    Config cfg = load(settings);
    Optional<WebConfigFile> webFile = WebSetup.load(settings, cfg);
    Infermon m = new Infermon(settings, cfg);
    m.webFile = webFile;
    m.beforeScrape = beforeScrape;
    try {
      m.startComponents(version);
    } catch (IOException | RuntimeException e) {
      m.close();
      throw e;
    }
    return m;
  }

  private static Config load(ServeSettings s) throws ConfigException {
    ConfigLoader loader = ConfigLoader.create().withEnv(s.env());
    ConfigResult r;
    if (!s.configFileExplicit() && !Files.exists(s.configFile())) {
      log.info("no {} found; starting with the built-in defaults", s.configFile());
      r = loader.parseResult("{}", "<defaults>");
    } else {
      r = loader.loadResult(s.configFile());
    }
    for (Problem w : r.warnings()) {
      log.warn("configuration: {}", w);
    }
    return r.config();
  }

  private synchronized void startComponents(String version) throws IOException {
    Config cfg = config.get();
    boolean embedded = cfg.storage().mode() == StorageConfig.Mode.EMBEDDED;
    OwnMetrics own = new OwnMetrics(registry);
    heapTrim = HeapTrim.start();
    OwnMetrics.bindTsdb(registry, tsdb::get);
    InstrumentedQueryBackend.Metrics queryMetrics = new InstrumentedQueryBackend.Metrics(registry);
    RemoteWriteMetrics.bind(
        registry, () -> remote.get() == null ? null : remote.get().remoteWrite());
    AlertingMetrics alertingMetrics =
        new AlertingMetrics(
            registry,
            this::ruleGroups,
            () -> alerting.get() == null ? -1 : alerting.get().queueLength(),
            () -> settings.alerting().notificationQueueCapacity());

    web = WebServer.start(WebSetup.options(cfg, settings, webFile), services(version));

    Path dir = settings.tsdbPath().orElse(Path.of(cfg.storage().tsdb().path()));
    TsdbOptions topts =
        TsdbOptions.defaults()
            .withRetentionTime(
                settings.retentionTime().orElse(cfg.storage().tsdb().retention().time()))
            .withRetentionBytes(
                settings.retentionSize().orElse(cfg.storage().tsdb().retention().size()).bytes());
    // Remote and agent mode keep no local samples (docs/deployment.md).
    Tsdb db = embedded ? Tsdb.open(dir, topts) : null;
    tsdb.set(db);
    RemoteStorage rs = RemoteStorage.start(cfg, db, version);
    remote.set(rs);
    EngineOptions eopts =
        EngineOptions.DEFAULTS
            .withTimeout(settings.queryTimeout())
            .withMaxSamples(settings.queryMaxSamples())
            .withLookbackDelta(settings.lookbackDelta())
            .withDefaultSubqueryStep(cfg.global().evaluationInterval());
    QueryBackend inner =
        rs.remoteQueries()
            .orElseGet(() -> db == null ? null : new EmbeddedQueryBackend(db, new Engine(eopts)));
    QueryBackend backend = inner == null ? null : new InstrumentedQueryBackend(inner, queryMetrics);

    beforeScrape.run(rs.storage());
    startAlerting(cfg, db, inner, rs.storage(), eopts, alertingMetrics);

    ScrapeManager sm = new ScrapeManager(rs.storage(), own, jitterSeed());
    scrape.set(sm);
    discovery = new DiscoveryManager(DiscoveryManager.DEFAULT_UPDATE_INTERVAL, sm);
    applyScrape(cfg);

    appendable.set(rs.storage());
    queries.set(backend);
    // the LLM layer speaks PromQL through the same backend: embedded or remote alike
    // with the embedded TSDB it can tell which steps are final: their range results are cached
    if (backend != null) {
      llm.bind(backend, inner instanceof EmbeddedQueryBackend ? db::appendableMinTime : null);
    }
    log.info("infermon is ready");
  }

  private WebServices services(String version) {
    return llm.serve(WebServices.builder())
        .queries(queries::get)
        .appendable(appendable::get)
        .targets(new TargetsAdapter(scrape::get))
        .rules(new RulesAdapter(this::ruleGroups))
        .configYaml(() -> config.get().toRedactedYaml())
        .flags(settings.flagValues())
        .buildInfo(BuildInfo.forInfermon(version))
        .reloader(this::reload)
        .registry(registry)
        .llm(() -> config.get().llm())
        .build();
  }

  /** The configured scrape pools plus those of the {@code inference} section. */
  private void applyScrape(Config cfg) {
    List<ScrapeConfig> configs = InferencePools.scrapeConfigs(cfg);
    scrape.get().applyConfig(configs);
    discovery.apply(InferencePools.discoverers(cfg));
  }

  /**
   * Rules need a query engine: the embedded one, or the remote API in remote mode. Agent mode has
   * neither and, as Prometheus's agent, evaluates no rules.
   */
  private void startAlerting(
      Config cfg,
      Tsdb db,
      QueryBackend inner,
      Storage storage,
      EngineOptions eopts,
      AlertingMetrics metrics) {
    QueryFunction query;
    if (db != null) {
      query = new EngineQueryFunction(new Engine(eopts), db);
    } else if (inner != null) {
      query = new BackendQueryFunction(inner);
    } else {
      if (!cfg.ruleFiles().isEmpty()) {
        log.warn(
            "storage.mode {} evaluates no rules; rule_files are ignored", cfg.storage().mode());
      }
      return;
    }
    alerting.set(
        Alerting.start(
            cfg, settings.alerting(), metrics, query, storage, externalUrl(), llm.exports()));
  }

  /** Where alerts link back to: the listen address, or the host name when bound to all. */
  private String externalUrl() {
    String listen = settings.listenAddress().orElse(config.get().web().listenAddress());
    int colon = listen.lastIndexOf(':');
    String host = colon < 0 ? listen : listen.substring(0, colon);
    if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("[::]")) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        host = "localhost";
      }
    }
    return web.scheme() + "://" + host + ":" + web.port();
  }

  private List<RuleGroupStatus> ruleGroups() {
    Alerting a = alerting.get();
    return a == null ? List.of() : a.status();
  }

  private static long jitterSeed() {
    try {
      return InetAddress.getLocalHost().getHostName().hashCode();
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * Loads the configuration file again and applies what can change at run time (scrape configs and
   * discovery). A configuration that does not load is refused with every problem listed, and the
   * running one stays.
   *
   * @throws ConfigException when the new file is invalid
   * @throws IllegalArgumentException when the scrape side refuses it (duplicate job names)
   */
  public synchronized void reload() throws ConfigException {
    if (closed) {
      throw new IllegalStateException("infermon is shutting down");
    }
    Config next = load(settings);
    Config prev = config.get();
    Alerting a = alerting.get();
    if (a != null) {
      a.apply(next);
    }
    applyScrape(next);
    config.set(next);
    if (!next.web().equals(prev.web())
        || !next.storage().equals(prev.storage())
        || !next.remoteWrite().equals(prev.remoteWrite())) {
      log.warn(
          "web, storage and remote_write settings changed; they take effect at the next restart");
    }
    log.info("configuration reloaded from {}", settings.configFile());
  }

  /** The HTTP port bound (useful with port 0). */
  public int port() {
    return web.port();
  }

  /** {@code http} or {@code https}. */
  public String scheme() {
    return web.scheme();
  }

  /** The registry behind {@code /metrics}. */
  public PrometheusRegistry registry() {
    return registry;
  }

  /** Blocks until {@link #close()} has finished. */
  public void awaitStopped() throws InterruptedException {
    stopped.await();
  }

  /**
   * Stops in reverse order: API unavailable, discovery, scraping, rules and notifier, HTTP server,
   * storage (which syncs and closes the write-ahead log). Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    log.info("shutting down");
    llm.unbind();
    queries.set(null);
    appendable.set(null);
    if (discovery != null) {
      discovery.close();
    }
    ScrapeManager sm = scrape.getAndSet(null);
    if (sm != null) {
      sm.close();
    }
    Alerting a = alerting.getAndSet(null);
    if (a != null) {
      a.close();
    }
    if (web != null) {
      web.close();
    }
    RemoteStorage rs = remote.getAndSet(null);
    if (rs != null) {
      rs.close();
    }
    Tsdb db = tsdb.getAndSet(null);
    if (db != null) {
      db.close();
    }
    if (heapTrim != null) {
      heapTrim.close();
    }
    stopped.countDown();
    log.info("stopped");
  }
}
