package dev.infermon.scrape;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import dev.infermon.storage.StorageException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scrapes one target every interval, at a phase fixed by the target's hash (Prometheus's {@code
 * scrapeLoop}). Each scrape is one storage transaction: the page's samples, the staleness markers
 * of series that vanished, and the report series {@code up}, {@code scrape_duration_seconds},
 * {@code scrape_samples_scraped}, {@code scrape_samples_post_metric_relabeling} and {@code
 * scrape_series_added}, all at the scrape's start time. A failed scrape (fetch error, parse error,
 * limit) commits none of the page: it is rolled back and replaced by staleness markers for every
 * series of the previous scrape, plus the report with {@code up} 0.
 *
 * <p>Threading: ticks come from a shared scheduler and run on a shared worker executor; a tick that
 * finds the previous scrape still running is skipped, so one loop's scrapes never overlap. Every
 * exception is caught here: a target never disturbs another or the process.
 */
final class ScrapeLoop {
  private static final Logger log = LoggerFactory.getLogger(ScrapeLoop.class);
  private static final byte[] EMPTY = new byte[0];
  static final String[] REPORT_NAMES = {
    "up",
    "scrape_duration_seconds",
    "scrape_samples_scraped",
    "scrape_samples_post_metric_relabeling",
    "scrape_series_added"
  };

  private final Target target;
  private final Scraper scraper;
  private final Appendable storage;
  private final ScrapeMetrics metrics;
  private final ScrapeCache cache = new ScrapeCache();
  private final Ingest ingest;
  private final Labels[] reportLabels = new Labels[REPORT_NAMES.length];
  private final long[] reportRefs = new long[REPORT_NAMES.length];
  private final ScrapeTimestamps timestamps;
  private final Object lock = new Object();
  private boolean running; // a scrape is in flight; guarded by lock
  private boolean stopped; // guarded by lock
  private ScheduledFuture<?> ticker;

  ScrapeLoop(
      Target target,
      Scraper scraper,
      Appendable storage,
      PoolSettings settings,
      ScrapeMetrics metrics) {
    this.target = target;
    this.scraper = scraper;
    this.storage = storage;
    this.metrics = metrics;
    this.ingest = new Ingest(settings, target.labels(), cache);
    this.timestamps = new ScrapeTimestamps(target.interval().toMillis());
    for (int i = 0; i < REPORT_NAMES.length; i++) {
      reportLabels[i] =
          target.labels().toBuilder().set(Labels.METRIC_NAME, REPORT_NAMES[i]).build();
    }
  }

  Target target() {
    return target;
  }

  /** Schedules the loop: first scrape after the target's offset, then every interval. */
  void start(ScheduledExecutorService scheduler, Executor workers, long jitterSeed) {
    long interval = target.interval().toNanos();
    long offset = target.offsetNanos(System.currentTimeMillis() * 1_000_000L, jitterSeed);
    synchronized (lock) {
      if (stopped) {
        return;
      }
      ticker =
          scheduler.scheduleAtFixedRate(
              () -> tick(workers), offset, interval, TimeUnit.NANOSECONDS);
    }
  }

  private void tick(Executor workers) {
    synchronized (lock) {
      if (running || stopped) {
        return; // previous scrape still in flight: skip this tick, as Go's ticker drops ticks
      }
      running = true;
    }
    // Stamped here, when the timer fires, not when a worker picks the scrape up: the hand-off (a
    // thread waking, or one being started) put 18% of scrapes more than the tolerance off the
    // grid, and each of those costs its sample and the next 16 bits of timestamp instead of 1.
    // Ticks of one loop never overlap (running), so the stamps stay in order.
    long stamp = timestamps.stamp(System.currentTimeMillis());
    try {
      workers.execute(
          () -> {
            try {
              scrapeAt(stamp);
            } finally {
              finish();
            }
          });
    } catch (RuntimeException e) {
      finish();
      log.error("cannot schedule scrape of {}", target, e);
    }
  }

  private void finish() {
    synchronized (lock) {
      running = false;
      lock.notifyAll();
    }
  }

  /**
   * One scrape stamped with the wall clock, unaligned; public to the package so tests can drive a
   * loop without its scheduler.
   */
  void scrapeOnce() {
    scrapeAt(System.currentTimeMillis());
  }

  /**
   * One scrape whose samples and report are stamped {@code start}: the live loop passes the wall
   * clock, {@link Backfill} the time a recorded page was taken.
   */
  void scrapeAt(long start) {
    long t0 = System.nanoTime();
    String error = null;
    Ingest.Result r = null;
    Appender app = null;
    try {
      app = storage.appender();
      try {
        Scraper.Page page = scraper.fetch(target.timeout());
        r = ingest.append(app, page.body(), page.length(), page.contentType(), start);
        if (r.error() != null) {
          error = r.error();
          app.rollback();
          metrics.samplesRejected(target.pool(), ScrapeMetrics.Rejection.SCRAPE_FAILED, r.added());
          app = storage.appender();
          ingest.append(app, EMPTY, 0, null, start);
        }
      } catch (Scraper.ScrapeFailure f) {
        error = f.getMessage();
        r = ingest.append(app, EMPTY, 0, null, start);
      }
      Duration took = Duration.ofNanos(System.nanoTime() - t0);
      report(app, start, took, r, error == null);
      app.commit();
      app = null;
      if (error == null) {
        metrics.samplesAppended(target.pool(), r.added());
      }
      String warning = reject(r);
      target.report(Instant.ofEpochMilli(start), took, error, warning);
      metrics.scrapeCompleted(target.pool(), error == null, took.toNanos() / 1e9);
      if (error != null) {
        log.debug("scrape of {} failed: {}", target, error);
      }
    } catch (RuntimeException e) {
      rollbackQuietly(app);
      Duration took = Duration.ofNanos(System.nanoTime() - t0);
      String msg = e instanceof StorageException ? e.getMessage() : e.toString();
      target.report(Instant.ofEpochMilli(start), took, msg, null);
      metrics.scrapeCompleted(target.pool(), false, took.toNanos() / 1e9);
      log.warn("scrape of {} failed in storage: {}", target, msg);
    }
  }

  /**
   * Counts the samples the storage refused and returns the target's warning for them (shown beside
   * its health, as a page that is scraped but partly dropped is still up), or null when none was.
   */
  private String reject(Ingest.Result r) {
    if (r == null) {
      return null;
    }
    if (r.outOfOrder() > 0) {
      metrics.samplesRejected(target.pool(), ScrapeMetrics.Rejection.OUT_OF_ORDER, r.outOfOrder());
    }
    if (r.duplicate() > 0) {
      metrics.samplesRejected(target.pool(), ScrapeMetrics.Rejection.DUPLICATE, r.duplicate());
    }
    if (r.outOfBounds() > r.tooFarInFuture()) {
      metrics.samplesRejected(
          target.pool(),
          ScrapeMetrics.Rejection.OUT_OF_BOUNDS,
          r.outOfBounds() - r.tooFarInFuture());
    }
    if (r.tooFarInFuture() > 0) {
      metrics.samplesRejected(
          target.pool(), ScrapeMetrics.Rejection.TOO_FAR_IN_FUTURE, r.tooFarInFuture());
    }
    if (r.outOfBounds() > 0) {
      // Prometheus's warning, with the first sample's series, time and limit.
      log.warn(
          "scrape of {}: error on ingesting samples that are too old or are too far into the"
              + " future, num_dropped={} (the first: {})",
          target,
          r.outOfBounds(),
          r.firstOutOfBounds());
      return (r.outOfBounds() == 1 ? "1 sample" : r.outOfBounds() + " samples")
          + " dropped as too old or too far in the future ("
          + r.tooFarInFuture()
          + " in the future; the first: "
          + r.firstOutOfBounds()
          + ")";
    }
    return null;
  }

  private void report(Appender app, long ts, Duration took, Ingest.Result r, boolean up) {
    double[] v = {
      up ? 1 : 0,
      took.toNanos() / 1e9,
      r == null ? 0 : r.total(),
      r == null ? 0 : r.added(),
      r == null ? 0 : r.seriesAdded()
    };
    for (int i = 0; i < v.length; i++) {
      reportRefs[i] = appendQuietly(app, reportRefs[i], reportLabels[i], ts, v[i]);
    }
  }

  private static long appendQuietly(Appender app, long ref, Labels l, long ts, double v) {
    try {
      return app.append(ref, l, ts, v);
    } catch (StorageException e) {
      return ref; // out of order after a clock step: nothing to do but skip
    }
  }

  /**
   * Stops the loop: no further ticks, waits (bounded by the timeout) for a scrape in flight, and,
   * when {@code markStale}, writes staleness markers for every series of the last scrape and for
   * the report series, as Prometheus does when a target goes away. Then closes the scraper.
   */
  void stop(boolean markStale) {
    try {
      awaitStop(markStale);
    } finally {
      scraper.close(); // its connection would otherwise outlive the target
    }
  }

  private void awaitStop(boolean markStale) {
    synchronized (lock) {
      stopped = true;
      if (ticker != null) {
        ticker.cancel(false);
      }
      long deadline = System.nanoTime() + target.timeout().toNanos() + 1_000_000_000L;
      while (running) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(lock, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      if (running) {
        log.warn("scrape of {} still running after stop; no staleness markers written", target);
        return;
      }
    }
    if (markStale) {
      writeEndOfRunStaleness();
    }
  }

  private void writeEndOfRunStaleness() {
    Appender app = null;
    try {
      app = storage.appender();
      long ts = System.currentTimeMillis();
      for (Labels l : cache.previous()) {
        appendQuietly(app, 0, l, ts, StaleNaN.VALUE);
      }
      for (int i = 0; i < reportLabels.length; i++) {
        appendQuietly(app, reportRefs[i], reportLabels[i], ts, StaleNaN.VALUE);
      }
      app.commit();
    } catch (RuntimeException e) {
      rollbackQuietly(app);
      log.warn("cannot write staleness markers for {}: {}", target, e.toString());
    }
  }

  private static void rollbackQuietly(Appender app) {
    if (app != null) {
      try {
        app.rollback();
      } catch (RuntimeException ignored) {
        // Already closed or storage gone: nothing more to undo.
      }
    }
  }
}
