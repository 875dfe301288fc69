package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.ConfigResult;
import dev.infermon.config.app.WebConfigFile;
import dev.infermon.config.yaml.Problem;
import dev.infermon.promql.QueryBackend;
import dev.infermon.rules.RuleGroupStatus;
import dev.infermon.storage.Appendable;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.web.BuildInfo;
import dev.infermon.web.WebServices;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running process: a {@link RunGroup} of components, started in this order and stopped in
 * reverse, each with its part of the configuration and its reload:
 *
 * <ol>
 *   <li>{@code heap-trim} ({@link HeapTrim});
 *   <li>{@code web}, the HTTP server ({@link WebComponent}): it listens before the storage opens,
 *       so {@code /-/healthy} and {@code /metrics} answer while the write-ahead log replays; {@code
 *       /-/ready} and the API answer 503 until {@code api} started;
 *   <li>{@code storage}, the TSDB ({@link StorageComponent}), and {@code remote-write}, the queues
 *       behind the fanout and the remote query API ({@link RemoteStorage});
 *   <li>{@code query-engine} ({@link QueryEngine});
 *   <li>{@code backfill}, the {@link BeforeScrape} hook (the demo's history);
 *   <li>{@code alerting}, rules and notifier ({@link RulesComponent});
 *   <li>{@code scrape} ({@link ScrapeComponent}) and {@code discovery} ({@link
 *       DiscoveryComponent});
 *   <li>{@code llm}, the LLM layer's services bound to the query engine ({@link LlmLayer}) and the
 *       {@code llm} section ({@link LlmComponent});
 *   <li>{@code api}: the storage and the query engine handed to the HTTP API, which is then ready.
 *       Stopping it first stops the HTTP server (requests in flight finish, up to 5 s), so no
 *       request reads a storage that is closing.
 * </ol>
 *
 * <p>{@link #reload()} loads the file again and moves every component to it, or none: a component
 * that refuses a setting (one that cannot change at run time) or fails names itself in the error,
 * and the running configuration stays ({@link RunGroup}).
 *
 * <p>Threading: {@link #reload()} and {@link #close()} may be called from any thread (SIGHUP, the
 * {@code /-/reload} endpoint, a shutdown hook); they are serialized.
 */
public final class Infermon implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Infermon.class);

  private final ServeSettings settings;
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final ReloadMetrics reloads = new ReloadMetrics(registry);
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final WebComponent web;
  private final StorageComponent storage;
  private final RemoteStorage remote;
  private final RulesComponent rules;
  private final ScrapeComponent scrape;
  private final LlmLayer layer = new LlmLayer();
  private final LlmComponent llm;
  private final RunGroup group;
  private volatile Config config;
  // What the HTTP API serves from, set when the api component starts: null means not ready (503).
  private volatile QueryBackend queries;
  private volatile Appendable appendable;
  private HeapTrim heapTrim;
  private boolean closed;

  private Infermon(
      ServeSettings settings,
      Config initial,
      Optional<WebConfigFile> webFile,
      String version,
      BeforeScrape backfill) {
    this.settings = settings;
    this.config = initial;
    OwnMetrics own = new OwnMetrics(registry);
    web = new WebComponent(settings, webFile, services(version));
    storage = new StorageComponent(settings);
    remote = new RemoteStorage(storage::tsdb, version);
    QueryEngine engine =
        new QueryEngine(
            settings,
            storage::tsdb,
            storage::rollups,
            remote,
            new InstrumentedQueryBackend.Metrics(registry));
    AlertingMetrics alertingMetrics =
        new AlertingMetrics(
            registry,
            this::ruleGroups,
            this::notificationQueueLength,
            () -> settings.alerting().notificationQueueCapacity());
    rules =
        new RulesComponent(
            settings,
            alertingMetrics,
            storage::tsdb,
            engine,
            remote,
            web::externalUrl,
            layer.exports(),
            layer.alertCauses(web::externalUrl));
    scrape = new ScrapeComponent(remote::storage, own, jitterSeed());
    llm = new LlmComponent(layer, engine, storage::tsdb, storage::rollups);
    OwnMetrics.bindTsdb(registry, storage::tsdb);
    OwnMetrics.bindRollups(registry, storage::rollups);
    RemoteWriteMetrics.bind(registry, remote::remoteWrite);
    group =
        new RunGroup(
            List.of(
                Component.of("heap-trim", cfg -> heapTrim = HeapTrim.start(), this::closeHeapTrim),
                web,
                storage,
                remote,
                engine,
                Component.of("backfill", cfg -> backfill.run(remote.storage()), () -> {}),
                rules,
                scrape,
                new DiscoveryComponent(scrape::manager),
                llm,
                Component.of(
                    "api",
                    cfg -> {
                      appendable = remote.storage();
                      queries = engine.backend();
                    },
                    this::stopServing)));
  }

  /**
   * Loads the configuration and starts every component. On failure, whatever started is stopped
   * again, in reverse, before the exception propagates.
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
    Infermon m = new Infermon(settings, cfg, WebSetup.load(settings, cfg), version, beforeScrape);
    try {
      m.startComponents();
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

  private synchronized void startComponents() throws IOException {
    group.start(config);
    reloads.succeeded(System.currentTimeMillis());
    log.info("infermon is ready");
  }

  /** What start-up skipped of the stored data; empty before the storage opened. */
  private List<String> startupProblems() {
    Tsdb db = storage == null ? null : storage.tsdb();
    return db == null ? List.of() : db.startupProblems();
  }

  private WebServices services(String version) {
    return layer
        .serve(WebServices.builder())
        .queries(() -> queries)
        .appendable(() -> appendable)
        .targets(new TargetsAdapter(() -> scrape.manager()))
        .rules(new RulesAdapter(this::ruleGroups))
        .configYaml(() -> config.toRedactedYaml())
        .flags(settings.flagValues())
        .buildInfo(BuildInfo.forInfermon(version))
        .reloader(this::reload)
        .registry(registry)
        .llm(() -> llm.section())
        .startupProblems(this::startupProblems)
        .build();
  }

  private List<RuleGroupStatus> ruleGroups() {
    return rules.status();
  }

  private int notificationQueueLength() {
    return rules.queueLength();
  }

  /** The api component's stop: unavailable first, then no more requests at all. */
  private void stopServing() {
    queries = null;
    appendable = null;
    if (web.server() != null) {
      web.server().close();
    }
  }

  private void closeHeapTrim() {
    if (heapTrim != null) {
      heapTrim.close();
    }
  }

  private static long jitterSeed() {
    try {
      return InetAddress.getLocalHost().getHostName().hashCode();
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * Loads the configuration file again and moves every component to it, in start order, logging
   * each one's time. A file that does not load is refused with every problem listed; a setting that
   * cannot change at run time, or a component that cannot take the new configuration (a rule file
   * that does not load, duplicate job names), refuses the whole reload, naming the component. The
   * running configuration stays then, in every component.
   *
   * @throws ConfigException when the new file is invalid
   * @throws ReloadException when a component refused or failed
   */
  public synchronized void reload() throws ConfigException, ReloadException {
    if (closed) {
      throw new IllegalStateException("infermon is shutting down");
    }
    long t0 = System.nanoTime();
    try {
      Config next = load(settings);
      String timings = group.reload(config, next);
      config = next;
      reloads.succeeded(System.currentTimeMillis());
      log.info(
          "configuration reloaded from {} in {} ms ({})",
          settings.configFile(),
          (System.nanoTime() - t0) / 1_000_000,
          timings);
    } catch (ConfigException | ReloadException | RuntimeException e) {
      reloads.failed();
      throw e;
    }
  }

  /** The HTTP port bound (useful with port 0). */
  public int port() {
    return web.server().port();
  }

  /** {@code http} or {@code https}. */
  public String scheme() {
    return web.server().scheme();
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
   * Stops the components in reverse order: the API and the HTTP server first, then discovery,
   * scraping, rules and notifier, the remote-write queues (flushed, bounded), the storage (which
   * syncs and closes the write-ahead log). Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    log.info("shutting down");
    group.stop();
    stopped.countDown();
    log.info("stopped");
  }
}
