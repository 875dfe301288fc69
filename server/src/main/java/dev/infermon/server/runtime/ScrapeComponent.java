package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.scrape.ScrapeManager;
import dev.infermon.scrape.ScrapeMetrics;
import dev.infermon.storage.Storage;
import java.util.List;
import java.util.function.Supplier;

/**
 * The scrape manager: the configured scrape pools plus those of the {@code inference} section
 * ({@link InferencePools}), appending to the storage of the moment ({@link RemoteStorage}).
 *
 * <p>Reload: pools whose config changed restart, removed ones stop and mark their series stale, new
 * ones start ({@link ScrapeManager#applyConfig}); job names are checked before anything changes.
 */
final class ScrapeComponent implements Component {
  private final Supplier<Storage> storage;
  private final ScrapeMetrics metrics;
  private final long jitterSeed;
  private volatile ScrapeManager manager;

  ScrapeComponent(Supplier<Storage> storage, ScrapeMetrics metrics, long jitterSeed) {
    this.storage = storage;
    this.metrics = metrics;
    this.jitterSeed = jitterSeed;
  }

  @Override
  public String name() {
    return "scrape";
  }

  @Override
  public void start(Config cfg) {
    List<ScrapeConfig> configs = InferencePools.scrapeConfigs(cfg);
    ScrapeManager m = new ScrapeManager(storage.get(), metrics, jitterSeed);
    manager = m;
    m.applyConfig(configs);
  }

  @Override
  public void stop() {
    ScrapeManager m = manager;
    manager = null;
    m.close();
  }

  @Override
  public Change prepare(Config current, Config next) {
    List<ScrapeConfig> configs = InferencePools.scrapeConfigs(next);
    ScrapeManager.checkJobNames(configs);
    ScrapeManager m = manager;
    return () -> m.applyConfig(configs);
  }

  /** The manager; null before start and after stop. */
  ScrapeManager manager() {
    return manager;
  }
}
