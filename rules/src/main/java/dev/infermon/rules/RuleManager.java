package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.rules.rulefmt.GroupSpec;
import dev.infermon.rules.rulefmt.RuleFile;
import dev.infermon.storage.Appender;
import dev.infermon.storage.StorageException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs rule groups on their intervals (Prometheus's {@code rules.Manager}). {@link #update}
 * replaces the groups, carrying alert state over to groups with the same file and name; the first
 * load after start restores the {@code for} state of alerts from {@code ALERTS_FOR_STATE} after the
 * second evaluation of each group, as Prometheus does.
 *
 * <p>Threading: thread-safe. Groups run on a small scheduler pool, each group on one thread at a
 * time; {@link #status()} returns immutable snapshots.
 */
public final class RuleManager implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RuleManager.class);

  private final RuleManagerOptions opts;
  private final ScheduledExecutorService scheduler;
  private final Map<String, Runner> runners = new LinkedHashMap<>();
  private boolean loadedOnce;
  private boolean closed;

  public RuleManager(RuleManagerOptions opts, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, got " + threads);
    }
    this.opts = opts;
    this.scheduler =
        Executors.newScheduledThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "rule-eval");
              t.setDaemon(true);
              return t;
            });
  }

  /** Builds groups without scheduling them (unit tests, {@code test rules}). */
  public static List<RuleGroup> groups(
      List<RuleFile> files, RuleManagerOptions opts, boolean shouldRestore) {
    List<RuleGroup> out = new ArrayList<>();
    for (RuleFile f : files) {
      for (GroupSpec g : f.groups()) {
        out.add(new RuleGroup(g, f.path(), opts, shouldRestore));
      }
    }
    return out;
  }

  /**
   * Replaces the running groups with the groups of {@code files} (already validated). Groups with
   * the same file and name keep their alerts; series of removed rules are marked stale.
   */
  public synchronized void update(List<RuleFile> files) {
    if (closed) {
      throw new IllegalStateException("rule manager is closed");
    }
    boolean restore = !loadedOnce;
    loadedOnce = true;
    Map<String, Runner> next = new LinkedHashMap<>();
    for (RuleGroup g : groups(files, opts, restore)) {
      Runner old = runners.remove(g.key());
      if (old != null) {
        old.stop();
        g.copyState(old.group);
        g.markRestored();
      }
      next.put(g.key(), new Runner(g, restore && old == null));
    }
    for (Runner removed : runners.values()) {
      removed.stop();
      markStale(removed.group.lastSeries());
    }
    runners.clear();
    runners.putAll(next);
    for (Runner r : runners.values()) {
      r.start();
    }
    log.info("Rule groups loaded: {}", runners.size());
  }

  private void markStale(List<Labels> series) {
    if (series.isEmpty()) {
      return;
    }
    long now = opts.clock().getAsLong();
    Appender app = opts.appendable().appender();
    for (Labels l : series) {
      try {
        app.append(0, l, now, StaleNaN.VALUE);
      } catch (StorageException e) {
        // a newer sample exists: nothing to mark
      }
    }
    try {
      app.commit();
    } catch (StorageException e) {
      log.warn("Stale markers for removed rules failed: {}", e.getMessage());
    }
  }

  /** Snapshots of every group, in file and group order. */
  public synchronized List<RuleGroupStatus> status() {
    List<RuleGroupStatus> out = new ArrayList<>();
    for (Runner r : runners.values()) {
      out.add(r.group.status());
    }
    return out;
  }

  @Override
  public synchronized void close() {
    closed = true;
    for (Runner r : runners.values()) {
      r.stop();
    }
    scheduler.shutdownNow();
    try {
      scheduler.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Schedules one group at its slots: evalTimestamp + k·interval. */
  private final class Runner {
    final RuleGroup group;
    private boolean shouldRestore;
    private long evalTsNanos;
    private int iterations;
    private volatile boolean stopped;
    private ScheduledFuture<?> future;

    Runner(RuleGroup group, boolean shouldRestore) {
      this.group = group;
      this.shouldRestore = shouldRestore;
    }

    synchronized void start() {
      long intervalNanos = group.intervalMs() * 1_000_000L;
      evalTsNanos = group.evalTimestampNanos(nowNanos()) + intervalNanos;
      schedule();
    }

    private long nowNanos() {
      return opts.clock().getAsLong() * 1_000_000L;
    }

    private void schedule() {
      if (stopped) {
        return;
      }
      long delayNanos = Math.max(0, evalTsNanos - nowNanos());
      future = scheduler.schedule(this::iterate, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void iterate() {
      synchronized (this) {
        if (stopped) {
          return;
        }
        try {
          group.eval(evalTsNanos / 1_000_000L);
          iterations++;
          if (shouldRestore && iterations >= 2) {
            group.restoreForState(opts.clock().getAsLong());
            shouldRestore = false;
          }
        } catch (Throwable t) {
          // Whatever went wrong, the group is scheduled again: a failure that escaped its rules
          // must not stop it for good (a scheduled task that throws is never run again).
          if (RuleGroup.isFatal(t)) {
            throw t;
          }
          log.error("Rule group {} failed: {}", group.key(), RuleGroup.errorText(t));
        }
        long intervalNanos = group.intervalMs() * 1_000_000L;
        long missed = (nowNanos() - evalTsNanos) / intervalNanos - 1;
        if (missed > 0) {
          log.warn("Rule group {} missed {} iterations", group.key(), missed);
        } else {
          missed = 0;
        }
        evalTsNanos += (missed + 1) * intervalNanos;
        schedule();
      }
    }

    void stop() {
      stopped = true;
      ScheduledFuture<?> f = future;
      if (f != null) {
        f.cancel(false);
      }
      synchronized (this) {
        // waits for a running evaluation to finish
      }
    }
  }
}
