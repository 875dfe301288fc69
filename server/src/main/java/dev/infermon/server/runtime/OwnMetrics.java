package dev.infermon.server.runtime;

import dev.infermon.scrape.ScrapeMetrics;
import dev.infermon.tsdb.CompactionStats;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.tsdb.head.HeadStats;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmBufferPoolMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmClassLoadingMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmCompilationMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmGarbageCollectorMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmNativeMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmRuntimeInfoMetric;
import io.prometheus.metrics.instrumentation.jvm.JvmThreadsMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * infermon's own metrics, bound to what the modules expose: the scrape side reports through {@link
 * ScrapeMetrics}; the TSDB's counters are read at scrape time from {@link Tsdb#headStats()}; the
 * JVM's (memory, GC, threads, process CPU) come from client_java's JVM instrumentation. Query and
 * HTTP metrics are registered by {@link InstrumentedQueryBackend} and the web module.
 *
 * <p>Thread-safe: client_java metrics are.
 */
final class OwnMetrics implements ScrapeMetrics {
  private final Counter scrapes;
  private final Histogram scrapeDuration;
  private final Counter appended;
  private final Counter rejected;

  OwnMetrics(PrometheusRegistry registry) {
    registerJvmMetrics(registry);
    scrapes =
        Counter.builder()
            .withoutExemplars()
            .name("infermon_scrapes_total")
            .help("Scrapes of targets, by scrape pool and result (success or failure).")
            .labelNames("scrape_pool", "result")
            .register(registry);
    scrapeDuration =
        Histogram.builder()
            .withoutExemplars()
            .name("infermon_scrape_duration_seconds")
            .help("Duration of scrapes, by scrape pool.")
            .labelNames("scrape_pool")
            .classicOnly()
            .classicUpperBounds(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
            .register(registry);
    appended =
        Counter.builder()
            .withoutExemplars()
            .name("infermon_scrape_samples_appended_total")
            .help("Scraped samples committed to storage, by scrape pool.")
            .labelNames("scrape_pool")
            .register(registry);
    rejected =
        Counter.builder()
            .withoutExemplars()
            .name("infermon_scrape_samples_rejected_total")
            .help("Scraped samples not stored, by scrape pool and reason.")
            .labelNames("scrape_pool", "reason")
            .register(registry);
  }

  @Override
  public void scrapeCompleted(String pool, boolean success, double seconds) {
    scrapes.labelValues(pool, success ? "success" : "failure").inc();
    scrapeDuration.labelValues(pool).observe(seconds);
  }

  @Override
  public void samplesAppended(String pool, long n) {
    appended.labelValues(pool).inc(n);
  }

  @Override
  public void samplesRejected(String pool, Rejection reason, long n) {
    rejected.labelValues(pool, reason.name().toLowerCase(Locale.ROOT)).inc(n);
  }

  /** The TSDB's counters, read when {@code /metrics} is scraped; zero while it is not open. */
  /**
   * The dashboard's rollups' store ({@code llm.dashboard.rollups}): how many series it holds in its
   * head and the newest step written (how far the writer is; nothing while it is off).
   */
  static void bindRollups(PrometheusRegistry registry, Supplier<Tsdb> store) {
    gauge(
        registry,
        "infermon_rollups_head_series",
        "Series of the dashboard's stored answers in their store's head.",
        store,
        db -> db.headStats().series());
    gauge(
        registry,
        "infermon_rollups_newest_step_timestamp_seconds",
        "The newest step of the dashboard's stored answers (or revocation) written.",
        store,
        db -> db.headStats().maxTime() / 1000.0);
  }

  static void bindTsdb(PrometheusRegistry registry, Supplier<Tsdb> tsdb) {
    gauge(
        registry,
        "infermon_tsdb_head_series",
        "Series in the head block.",
        tsdb,
        db -> db.headStats().series());
    counter(
        registry,
        "infermon_tsdb_head_series_created_total",
        "Series created in the head (replay included).",
        tsdb,
        db -> db.headStats().seriesCreated());
    counter(
        registry,
        "infermon_tsdb_head_series_removed_total",
        "Series removed from the head by truncation.",
        tsdb,
        db -> db.headStats().seriesRemoved());
    counter(
        registry,
        "infermon_tsdb_head_samples_appended_total",
        "Samples appended to the head (replay included).",
        tsdb,
        db -> db.headStats().samplesAppended());
    CounterWithCallback.builder()
        .name("infermon_tsdb_rejected_samples_total")
        .help("Samples the head rejected, by reason.")
        .labelNames("reason")
        .callback(
            cb -> {
              Tsdb db = tsdb.get();
              if (db != null) {
                HeadStats s = db.headStats();
                cb.call(s.outOfOrder(), "out_of_order");
                cb.call(s.duplicate(), "duplicate");
                cb.call(s.outOfBounds(), "out_of_bounds");
                cb.call(s.tooFarInFuture(), "too_far_in_future");
              }
            })
        .register(registry);
    bindTsdbHealth(registry, tsdb);
    CounterWithCallback.builder()
        .name("infermon_tsdb_compactions_total")
        .help("Compactions done: blocks cut from the head, and merges of blocks.")
        .labelNames("kind")
        .callback(
            cb -> {
              Tsdb db = tsdb.get();
              if (db != null) {
                CompactionStats s = db.compactionStats();
                cb.call(s.headCompactions(), "head");
                cb.call(s.blockCompactions(), "blocks");
              }
            })
        .register(registry);
    counter(
        registry,
        "infermon_tsdb_compactions_failed_total",
        "Block merges that failed; their blocks are left as they are.",
        tsdb,
        db -> db.compactionStats().failedCompactions());
    counter(
        registry,
        "infermon_tsdb_retention_deleted_blocks_total",
        "Blocks deleted by time or size retention.",
        tsdb,
        db -> db.compactionStats().retentionDeletedBlocks());
    gauge(
        registry,
        "infermon_tsdb_blocks_loaded",
        "Persistent blocks open.",
        tsdb,
        db -> db.blocks().size());
    gauge(
        registry,
        "infermon_tsdb_wal_replay_samples",
        "Samples replayed from the write-ahead log at start.",
        tsdb,
        db -> db.replayStats().samples());
    gauge(
        registry,
        "infermon_tsdb_wal_replay_duration_seconds",
        "Time the write-ahead log replay took at start.",
        tsdb,
        db -> db.replayStats().millis() / 1000.0);
  }

  /**
   * What an operator alerts on besides rejected samples: what start-up skipped (unreadable blocks,
   * write-ahead log damage, samples it could not restore) and writes refused by the disk.
   */
  private static void bindTsdbHealth(PrometheusRegistry registry, Supplier<Tsdb> tsdb) {
    gauge(
        registry,
        "infermon_tsdb_blocks_skipped",
        "Blocks that could not be read at start-up; their data is not queried.",
        tsdb,
        db -> db.skippedBlocks().size());
    counter(
        registry,
        "infermon_tsdb_wal_corruptions_total",
        "Damaged places found in the write-ahead log at start-up: skipped byte ranges, bad"
            + " segment headers, missing segments.",
        tsdb,
        db -> db.replayStats().corruptions());
    counter(
        registry,
        "infermon_tsdb_wal_repairs_total",
        "Repairs written to the write-ahead log at start-up.",
        tsdb,
        db -> db.replayStats().repairs().size());
    counter(
        registry,
        "infermon_tsdb_wal_skipped_bytes_total",
        "Bytes of the write-ahead log skipped as damaged at start-up.",
        tsdb,
        db -> db.replayStats().skippedBytes());
    CounterWithCallback.builder()
        .name("infermon_tsdb_wal_lost_samples_total")
        .help(
            "Samples in the write-ahead log that start-up could not restore, by reason:"
                + " series_record_lost (the series record lay in a damaged part),"
                + " too_far_in_future (beyond the future window).")
        .labelNames("reason")
        .callback(
            cb -> {
              Tsdb db = tsdb.get();
              if (db != null) {
                cb.call(db.replayStats().orphanSamples(), "series_record_lost");
                cb.call(db.futureSamplesDroppedAtReplay(), "too_far_in_future");
              }
            })
        .register(registry);
    CounterWithCallback.builder()
        .name("infermon_tsdb_write_failures_total")
        .help(
            "Writes to disk that failed, by kind: wal (commits refused), compaction (runs"
                + " retried at the next interval).")
        .labelNames("kind")
        .callback(
            cb -> {
              Tsdb db = tsdb.get();
              if (db != null) {
                Tsdb.WriteFailures f = db.writeFailures();
                cb.call(f.walWrites(), "wal");
                cb.call(f.compactions(), "compaction");
              }
            })
        .register(registry);
    counter(
        registry,
        "infermon_tsdb_disk_full_errors_total",
        "Writes the operating system refused for lack of space (ENOSPC, EDQUOT).",
        tsdb,
        db -> db.writeFailures().noSpace());
  }

  private static void gauge(
      PrometheusRegistry r,
      String name,
      String help,
      Supplier<Tsdb> tsdb,
      ToDoubleFunction<Tsdb> stat) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .callback(
            cb -> {
              Tsdb db = tsdb.get();
              if (db != null) {
                cb.call(stat.applyAsDouble(db));
              }
            })
        .register(r);
  }

  private static void counter(
      PrometheusRegistry r,
      String name,
      String help,
      Supplier<Tsdb> tsdb,
      ToDoubleFunction<Tsdb> stat) {
    CounterWithCallback.builder()
        .name(name)
        .help(help)
        .callback(
            cb -> {
              Tsdb db = tsdb.get();
              if (db != null) {
                cb.call(stat.applyAsDouble(db));
              }
            })
        .register(r);
  }

  /**
   * What {@code JvmMetrics.builder().register} registers, with two exceptions. The native-memory
   * metrics are asked for only when native memory tracking is on: their check starts the platform
   * MBean server (~250 JMX classes resident for the life of the process) just to learn that
   * tracking is off, as it is unless {@code -XX:NativeMemoryTracking} is given. And {@code
   * jvm_memory_pool_allocated_bytes_total} is left out: it listens to a JMX notification after
   * every collection, which the JVM's notification thread builds from open-type composite data
   * (about 1% of {@code serve}'s CPU in the scrape benchmark, plus ~100 JMX classes); {@code
   * jvm_gc_collection_seconds} and {@code jvm_memory_used_bytes} cover what it told.
   */
  private static void registerJvmMetrics(PrometheusRegistry registry) {
    JvmThreadsMetrics.builder().register(registry);
    JvmBufferPoolMetrics.builder().register(registry);
    JvmClassLoadingMetrics.builder().register(registry);
    JvmCompilationMetrics.builder().register(registry);
    JvmGarbageCollectorMetrics.builder().register(registry);
    JvmMemoryMetrics.builder().register(registry);
    if (nativeMemoryTracking()) {
      JvmNativeMemoryMetrics.builder().register(registry);
    }
    JvmRuntimeInfoMetric.builder().register(registry);
    ProcessMetrics.builder().register(registry);
  }

  static boolean nativeMemoryTracking() {
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-XX:NativeMemoryTracking=") && !arg.endsWith("=off")) {
        return true;
      }
    }
    return false;
  }
}
