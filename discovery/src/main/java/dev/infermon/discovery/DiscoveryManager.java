package dev.infermon.discovery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the providers of every target set (one set per scrape pool) and hands the scrape side full
 * snapshots, as Prometheus's {@code discovery.Manager}: each provider's groups are kept by source,
 * and at most once per update interval (5 s by default, Prometheus's {@code updatert}) the manager
 * sends {@code set name -> every group of every provider of the set} to its consumer, if anything
 * changed since the last send.
 *
 * <p>Threading: thread-safe. Each provider runs on its own daemon thread; the consumer is called
 * from one scheduler thread, never concurrently with itself.
 */
public final class DiscoveryManager implements AutoCloseable {
  /** Prometheus's default: target updates are coalesced over 5 s. */
  public static final Duration DEFAULT_UPDATE_INTERVAL = Duration.ofSeconds(5);

  private static final Logger log = LoggerFactory.getLogger(DiscoveryManager.class);

  private final Consumer<Map<String, List<TargetGroup>>> consumer;
  private final ScheduledExecutorService ticker;
  private final Object lock = new Object();
  // set name -> providers; provider -> (source -> group)
  private final Map<String, List<Provider>> sets = new LinkedHashMap<>();
  private boolean dirty;
  private boolean closed;

  /**
   * A manager sending to {@code consumer} at most once per {@code updateInterval}.
   *
   * @throws IllegalArgumentException if the interval is not positive
   */
  public DiscoveryManager(
      Duration updateInterval, Consumer<Map<String, List<TargetGroup>>> consumer) {
    if (updateInterval.isNegative() || updateInterval.isZero()) {
      throw new IllegalArgumentException("update interval must be positive: " + updateInterval);
    }
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "discovery-updates");
              t.setDaemon(true);
              return t;
            });
    long ms = updateInterval.toMillis();
    ticker.scheduleWithFixedDelay(this::flush, ms, ms, TimeUnit.MILLISECONDS);
  }

  /**
   * Replaces every target set: stops the providers of the old sets and starts the new ones. A set
   * that no longer exists is sent once as an empty list, so its scrape pool drops its targets.
   */
  public void apply(Map<String, List<Discoverer>> providersBySet) {
    List<Provider> toStop = new ArrayList<>();
    List<Provider> toStart = new ArrayList<>();
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("discovery manager is closed");
      }
      for (List<Provider> ps : sets.values()) {
        toStop.addAll(ps);
      }
      Map<String, List<Provider>> old = new LinkedHashMap<>(sets);
      sets.clear();
      for (Map.Entry<String, List<Discoverer>> e : providersBySet.entrySet()) {
        List<Provider> ps = new ArrayList<>();
        for (Discoverer d : e.getValue()) {
          Provider p = new Provider(e.getKey(), d);
          ps.add(p);
          toStart.add(p);
        }
        sets.put(e.getKey(), ps);
      }
      for (String name : old.keySet()) {
        // A removed set stays, empty, until the next send tells the scrape side.
        sets.putIfAbsent(name, new ArrayList<>());
      }
      dirty = true;
    }
    for (Provider p : toStop) {
      p.discoverer.stop();
    }
    for (Provider p : toStart) {
      Thread t = new Thread(p::run, "discovery-" + p.setName);
      t.setDaemon(true);
      t.start();
    }
  }

  /** Sends the current snapshot now if anything changed (also what the ticker does). */
  public void flush() {
    Map<String, List<TargetGroup>> snapshot;
    synchronized (lock) {
      if (!dirty || closed) {
        return;
      }
      dirty = false;
      snapshot = new LinkedHashMap<>();
      List<String> emptySets = new ArrayList<>();
      for (Map.Entry<String, List<Provider>> e : sets.entrySet()) {
        List<TargetGroup> all = new ArrayList<>();
        for (Provider p : e.getValue()) {
          all.addAll(p.groups.values());
        }
        snapshot.put(e.getKey(), List.copyOf(all));
        if (e.getValue().isEmpty()) {
          emptySets.add(e.getKey());
        }
      }
      for (String s : emptySets) {
        sets.remove(s);
      }
    }
    try {
      consumer.accept(snapshot);
    } catch (RuntimeException e) {
      log.error("target update consumer failed", e);
    }
  }

  /** Stops every provider and the ticker. */
  @Override
  public void close() {
    List<Provider> toStop = new ArrayList<>();
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      for (List<Provider> ps : sets.values()) {
        toStop.addAll(ps);
      }
      sets.clear();
    }
    ticker.shutdownNow();
    for (Provider p : toStop) {
      p.discoverer.stop();
    }
  }

  private final class Provider implements TargetSink {
    final String setName;
    final Discoverer discoverer;
    // Guarded by DiscoveryManager.lock.
    final Map<String, TargetGroup> groups = new LinkedHashMap<>();

    Provider(String setName, Discoverer discoverer) {
      this.setName = setName;
      this.discoverer = discoverer;
    }

    void run() {
      try {
        discoverer.run(this);
      } catch (RuntimeException e) {
        log.error("discovery provider of {} failed", setName, e);
      }
    }

    @Override
    public void update(List<TargetGroup> changed) {
      synchronized (lock) {
        if (closed || !sets.getOrDefault(setName, List.of()).contains(this)) {
          return; // a stopped provider's late update
        }
        for (TargetGroup g : changed) {
          if (g.isEmpty()) {
            groups.remove(g.source());
          } else {
            groups.put(g.source(), g);
          }
        }
        dirty = true;
      }
    }
  }
}
