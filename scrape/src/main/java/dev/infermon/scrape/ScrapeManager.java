package dev.infermon.scrape;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.storage.Appendable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs one scrape pool per scrape config (Prometheus's {@code scrape.Manager}): {@link
 * #applyConfig(List)} creates, replaces and removes pools; {@link #accept(Map)} takes the target
 * sets the {@link dev.infermon.discovery.DiscoveryManager} sends, by pool name (the job name). It
 * is also the {@link TargetRetriever} behind {@code /api/v1/targets}.
 *
 * <p>Threading: thread-safe. Scrape ticks come from one scheduler thread; scrapes run on a cached
 * pool of daemon worker threads (at most one per target at a time).
 */
public final class ScrapeManager
    implements TargetRetriever, Consumer<Map<String, List<TargetGroup>>>, AutoCloseable {
  /** Scrape workers that stay alive while idle. */
  static final int CORE_WORKERS = 4;

  private final Appendable storage;
  private final ScrapeMetrics metrics;
  private final long jitterSeed;
  private final ScheduledExecutorService scheduler;
  private final ExecutorService workers;
  private final ScrapePool.ScraperFactory scraperOverride;
  private final Map<String, ScrapePool> pools = new TreeMap<>();
  private Map<String, List<TargetGroup>> lastSets = Map.of();

  /**
   * A manager appending to {@code storage}.
   *
   * @param jitterSeed mixed into every target's phase so that two servers scraping the same targets
   *     do not scrape them at the same instant (Prometheus derives it from the host name and
   *     external labels)
   */
  public ScrapeManager(Appendable storage, ScrapeMetrics metrics, long jitterSeed) {
    this(storage, metrics, jitterSeed, null);
  }

  ScrapeManager(
      Appendable storage,
      ScrapeMetrics metrics,
      long jitterSeed,
      ScrapePool.ScraperFactory scraperOverride) {
    this.storage = Objects.requireNonNull(storage, "storage");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.jitterSeed = jitterSeed;
    this.scraperOverride = scraperOverride;
    ScheduledThreadPoolExecutor s = new ScheduledThreadPoolExecutor(1, daemon("scrape-ticker"));
    s.setRemoveOnCancelPolicy(true);
    this.scheduler = s;
    // A cached pool, but its first CORE_WORKERS threads never time out. Under the cached pool's
    // 60 s idle limit, workers died and were replaced every few minutes at 135 targets (the
    // hand-off is last-in-first-out, so some threads stay idle), and each new thread rebuilt its
    // symbol table and page buffer (Ingest, PageBuffers). Scrapes that block on slow targets
    // still get threads beyond the core ones, which time out as before.
    this.workers =
        new ThreadPoolExecutor(
            CORE_WORKERS,
            Integer.MAX_VALUE,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            daemon("scrape-worker"));
  }

  private static ThreadFactory daemon(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Applies a configuration: pools whose config is unchanged keep running; changed ones restart
   * with the targets they had (no staleness markers, the series continue); removed ones stop and
   * mark their series stale.
   *
   * @throws IllegalArgumentException if two configs share a job name or a TLS setting is invalid
   */
  public synchronized void applyConfig(List<ScrapeConfig> configs) {
    Map<String, ScrapeConfig> byName = byJobName(configs);
    List<String> names = new ArrayList<>(pools.keySet());
    for (String name : names) {
      ScrapeConfig c = byName.get(name);
      ScrapePool p = pools.get(name);
      if (c == null) {
        pools.remove(name).stop(true);
      } else if (!c.equals(p.config())) {
        p.stop(false);
        ScrapePool np = newPool(c);
        pools.put(name, np);
        np.sync(p.lastGroups());
      }
    }
    for (ScrapeConfig c : byName.values()) {
      if (!pools.containsKey(c.jobName())) {
        ScrapePool np = newPool(c);
        pools.put(c.jobName(), np);
        np.sync(lastSets.getOrDefault(c.jobName(), List.of()));
      }
    }
  }

  /**
   * What {@link #applyConfig} checks before it changes anything, for a caller that must know first
   * (a reload that touches other components too).
   *
   * @throws IllegalArgumentException if two configs share a job name
   */
  public static void checkJobNames(List<ScrapeConfig> configs) {
    byJobName(configs);
  }

  private static Map<String, ScrapeConfig> byJobName(List<ScrapeConfig> configs) {
    Map<String, ScrapeConfig> byName = new TreeMap<>();
    for (ScrapeConfig c : configs) {
      if (byName.put(c.jobName(), c) != null) {
        throw new IllegalArgumentException("duplicate scrape config job name: " + c.jobName());
      }
    }
    return byName;
  }

  private ScrapePool newPool(ScrapeConfig c) {
    ScrapePool.ScraperFactory f =
        scraperOverride != null ? scraperOverride : new HttpScrapers(c, workers);
    return new ScrapePool(c, storage, scheduler, workers, f, metrics, jitterSeed);
  }

  /** Takes the latest target sets by pool name; sets of unknown pools are kept for later. */
  @Override
  public synchronized void accept(Map<String, List<TargetGroup>> sets) {
    Map<String, List<TargetGroup>> merged = new TreeMap<>(lastSets);
    merged.putAll(sets);
    lastSets = merged;
    for (Map.Entry<String, List<TargetGroup>> e : sets.entrySet()) {
      ScrapePool p = pools.get(e.getKey());
      if (p != null) {
        p.sync(e.getValue());
      }
    }
  }

  @Override
  public synchronized Map<String, List<TargetStatus>> activeTargets() {
    Map<String, List<TargetStatus>> out = new TreeMap<>();
    for (Map.Entry<String, ScrapePool> e : pools.entrySet()) {
      out.put(e.getKey(), e.getValue().active());
    }
    return out;
  }

  @Override
  public synchronized Map<String, List<DroppedTarget>> droppedTargets() {
    Map<String, List<DroppedTarget>> out = new TreeMap<>();
    for (Map.Entry<String, ScrapePool> e : pools.entrySet()) {
      out.put(e.getKey(), e.getValue().dropped());
    }
    return out;
  }

  /**
   * Stops every pool without staleness markers (as Prometheus on shutdown: the data simply ends)
   * and the executors.
   */
  @Override
  public synchronized void close() {
    for (ScrapePool p : pools.values()) {
      p.stop(false);
    }
    pools.clear();
    scheduler.shutdownNow();
    workers.shutdownNow();
  }
}
