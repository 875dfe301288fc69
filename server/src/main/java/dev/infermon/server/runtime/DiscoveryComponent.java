package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.discovery.Discoverer;
import dev.infermon.discovery.DiscoveryManager;
import dev.infermon.scrape.ScrapeManager;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Service discovery for every scrape pool ({@link InferencePools#discoverers}), sending target sets
 * to the scrape manager.
 *
 * <p>Reload: the discoverers are built while preparing (a Kubernetes client that cannot be made
 * fails the reload there) and replace the running ones when applied; a prepared set that is not
 * applied is stopped unused.
 */
final class DiscoveryComponent implements Component {
  private final Supplier<ScrapeManager> consumer;
  private DiscoveryManager manager;

  DiscoveryComponent(Supplier<ScrapeManager> consumer) {
    this.consumer = consumer;
  }

  @Override
  public String name() {
    return "discovery";
  }

  @Override
  public void start(Config cfg) {
    Map<String, List<Discoverer>> providers = InferencePools.discoverers(cfg);
    manager = new DiscoveryManager(DiscoveryManager.DEFAULT_UPDATE_INTERVAL, consumer.get());
    manager.apply(providers);
  }

  @Override
  public void stop() {
    manager.close();
  }

  @Override
  public Change prepare(Config current, Config next) {
    Map<String, List<Discoverer>> providers = InferencePools.discoverers(next);
    DiscoveryManager m = manager;
    return new Change() {
      @Override
      public void apply() {
        m.apply(providers);
      }

      @Override
      public void abort() {
        providers.values().forEach(ds -> ds.forEach(Discoverer::stop));
      }
    };
  }
}
