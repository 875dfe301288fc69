package dev.infermon.scrape;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.storage.Appendable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The targets of one scrape config and their loops (Prometheus's {@code scrapePool}). {@link
 * #sync(List)} turns the latest groups into targets, starts loops for new targets, keeps running
 * ones, and stops the loops of targets that went away, with staleness markers for their series.
 *
 * <p>Threading: {@code sync}, {@code stop} and the readers are synchronized; loops run on the
 * manager's executors.
 */
final class ScrapePool {
  private static final Logger log = LoggerFactory.getLogger(ScrapePool.class);

  /** Makes the fetcher of a target (HTTP in production, canned pages in tests). */
  interface ScraperFactory extends AutoCloseable {
    Scraper create(Target target, ScrapeConfig cfg);

    /** Releases what the fetchers share (connections); called once the pool's loops stopped. */
    @Override
    default void close() {}
  }

  private final String name;
  private final ScrapeConfig cfg;
  private final PoolSettings settings;
  private final Appendable storage;
  private final ScheduledExecutorService scheduler;
  private final Executor workers;
  private final ScraperFactory scrapers;
  private final ScrapeMetrics metrics;
  private final long jitterSeed;
  private final Map<Long, ScrapeLoop> loops = new LinkedHashMap<>();
  private List<DroppedTarget> dropped = List.of();
  private List<TargetGroup> lastGroups = List.of();

  ScrapePool(
      ScrapeConfig cfg,
      Appendable storage,
      ScheduledExecutorService scheduler,
      Executor workers,
      ScraperFactory scrapers,
      ScrapeMetrics metrics,
      long jitterSeed) {
    this.name = cfg.jobName();
    this.cfg = cfg;
    this.settings = PoolSettings.of(cfg);
    this.storage = storage;
    this.scheduler = scheduler;
    this.workers = workers;
    this.scrapers = scrapers;
    this.metrics = metrics;
    this.jitterSeed = jitterSeed;
  }

  ScrapeConfig config() {
    return cfg;
  }

  synchronized List<TargetGroup> lastGroups() {
    return lastGroups;
  }

  /** Applies the latest groups of this pool. */
  synchronized void sync(List<TargetGroup> groups) {
    lastGroups = List.copyOf(groups);
    Map<Long, Target> active = new LinkedHashMap<>();
    List<DroppedTarget> drops = new ArrayList<>();
    for (TargetGroup g : groups) {
      for (TargetBuilder.Result r : TargetBuilder.fromGroup(name, g, cfg)) {
        if (r.error() != null) {
          log.warn("creating target failed in pool {} (group {}): {}", name, g.source(), r.error());
        } else if (r.target() == null) {
          drops.add(new DroppedTarget(r.discovered(), name));
        } else {
          active.putIfAbsent(r.target().hash(), r.target());
        }
      }
    }
    if (cfg.keepDroppedTargets() > 0 && drops.size() > cfg.keepDroppedTargets()) {
      drops = drops.subList(0, (int) cfg.keepDroppedTargets());
    }
    dropped = List.copyOf(drops);
    if (cfg.targetLimit() > 0 && active.size() > cfg.targetLimit()) {
      log.error(
          "pool {}: target_limit exceeded (number of targets: {}, limit: {}); keeping the first {}",
          name,
          active.size(),
          cfg.targetLimit(),
          cfg.targetLimit());
      Map<Long, Target> kept = new LinkedHashMap<>();
      for (Map.Entry<Long, Target> e : active.entrySet()) {
        if (kept.size() < cfg.targetLimit()) {
          kept.put(e.getKey(), e.getValue());
        }
      }
      active = kept;
    }
    Map<Long, ScrapeLoop> gone = new HashMap<>(loops);
    for (Map.Entry<Long, Target> e : active.entrySet()) {
      ScrapeLoop existing = loops.get(e.getKey());
      if (existing != null) {
        existing.target().discoveredLabels(e.getValue().discoveredLabels());
        gone.remove(e.getKey());
        continue;
      }
      Target t = e.getValue();
      ScrapeLoop l = new ScrapeLoop(t, scrapers.create(t, cfg), storage, settings, metrics);
      loops.put(e.getKey(), l);
      l.start(scheduler, workers, jitterSeed);
    }
    for (Map.Entry<Long, ScrapeLoop> e : gone.entrySet()) {
      loops.remove(e.getKey());
      e.getValue().stop(true);
    }
  }

  /** Stops every loop; with {@code markStale}, their series get staleness markers. */
  synchronized void stop(boolean markStale) {
    for (ScrapeLoop l : loops.values()) {
      l.stop(markStale);
    }
    loops.clear();
    scrapers.close();
  }

  synchronized List<TargetStatus> active() {
    List<TargetStatus> out = new ArrayList<>();
    for (ScrapeLoop l : loops.values()) {
      out.add(l.target().status());
    }
    out.sort(Comparator.comparing(TargetStatus::scrapeUrl));
    return out;
  }

  synchronized List<DroppedTarget> dropped() {
    return dropped;
  }
}
