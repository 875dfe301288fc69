package dev.infermon.discovery.staticsd;

import dev.infermon.config.scrape.StaticConfig;
import dev.infermon.discovery.Discoverer;
import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.discovery.TargetSink;
import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code static_configs}: one group per config, with source {@code "0"}, {@code "1"}, ... as
 * Prometheus's {@code StaticProvider} numbers them; each target is {@code
 * {__address__="host:port"}} and the config's labels are the group's labels. Sends once, then waits
 * to be stopped.
 */
public final class StaticDiscoverer implements Discoverer {
  private final List<TargetGroup> groups;
  private final CountDownLatch stopped = new CountDownLatch(1);

  /** A provider for these configs. */
  public StaticDiscoverer(List<StaticConfig> configs) {
    List<TargetGroup> gs = new ArrayList<>();
    for (int i = 0; i < configs.size(); i++) {
      StaticConfig c = configs.get(i);
      List<Labels> targets = new ArrayList<>();
      for (String address : c.targets()) {
        targets.add(Labels.of(DiscoveryLabels.ADDRESS, address));
      }
      gs.add(new TargetGroup(Integer.toString(i), targets, c.labels()));
    }
    this.groups = List.copyOf(gs);
  }

  /** The groups this provider sends. */
  public List<TargetGroup> groups() {
    return groups;
  }

  @Override
  public void run(TargetSink sink) {
    sink.update(groups);
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void stop() {
    stopped.countDown();
  }
}
