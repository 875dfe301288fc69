package dev.infermon.tsdb;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Tsdb} is shaped. Immutable; the defaults are Prometheus's where it has one.
 *
 * @param blockRange length of a block cut from the head, and of the head's chunk ranges; the head
 *     is compacted when it spans 1.5 times this ({@link #DEFAULT_BLOCK_RANGE})
 * @param retentionTime blocks whose end lies this far behind the newest block's end are deleted;
 *     {@link Duration#ZERO} for no time retention ({@link #DEFAULT_RETENTION_TIME})
 * @param retentionBytes the oldest blocks are deleted while blocks plus write-ahead log exceed it;
 *     0 for no size retention ({@link #DEFAULT_RETENTION_BYTES})
 * @param walSegmentBytes size at which a write-ahead log segment is closed ({@link
 *     #DEFAULT_WAL_SEGMENT_BYTES})
 * @param walSyncInterval how often the write-ahead log is fsynced: the bound on what a power
 *     failure or kernel crash can lose ({@link #DEFAULT_WAL_SYNC_INTERVAL}); a killed process loses
 *     nothing that was committed
 * @param compactionInterval how often the background thread checks whether to compact ({@link
 *     #DEFAULT_COMPACTION_INTERVAL})
 * @param readerDrainTimeout how long head truncation waits for queriers opened before a new block
 *     was added to close ({@link #DEFAULT_READER_DRAIN_TIMEOUT})
 * @param futureWindow how far ahead of the clock a sample may lie: later ones are refused with
 *     {@link dev.infermon.storage.TooFarInFutureException} and dropped at replay, so the head's
 *     time range never moves into the future ({@link #DEFAULT_FUTURE_WINDOW})
 */
public record TsdbOptions(
    Duration blockRange,
    Duration retentionTime,
    long retentionBytes,
    long walSegmentBytes,
    Duration walSyncInterval,
    Duration compactionInterval,
    Duration readerDrainTimeout,
    Duration futureWindow) {

  /** Prometheus's {@code --storage.tsdb.min-block-duration}. */
  public static final Duration DEFAULT_BLOCK_RANGE = Duration.ofHours(2);

  /** Prometheus's {@code --storage.tsdb.retention.time}. */
  public static final Duration DEFAULT_RETENTION_TIME = Duration.ofDays(15);

  /** No size retention, as Prometheus. */
  public static final long DEFAULT_RETENTION_BYTES = 0;

  /** Prometheus's WAL segment size. */
  public static final long DEFAULT_WAL_SEGMENT_BYTES = 128L << 20;

  /** At most this much acknowledged data is lost when the machine (not the process) dies. */
  public static final Duration DEFAULT_WAL_SYNC_INTERVAL = Duration.ofSeconds(1);

  /** Prometheus checks every minute. */
  public static final Duration DEFAULT_COMPACTION_INTERVAL = Duration.ofMinutes(1);

  public static final Duration DEFAULT_READER_DRAIN_TIMEOUT = Duration.ofMinutes(1);

  /** Prometheus's scrape loop and remote-write handler refuse samples 10 minutes ahead. */
  public static final Duration DEFAULT_FUTURE_WINDOW =
      Duration.ofMillis(dev.infermon.tsdb.head.HeadOptions.DEFAULT_FUTURE_WINDOW_MS);

  /** Prometheus caps compacted blocks at 31 days (and at 10% of the retention time). */
  static final Duration MAX_BLOCK_DURATION = Duration.ofDays(31);

  public TsdbOptions {
    Objects.requireNonNull(blockRange, "blockRange");
    Objects.requireNonNull(retentionTime, "retentionTime");
    Objects.requireNonNull(walSyncInterval, "walSyncInterval");
    Objects.requireNonNull(compactionInterval, "compactionInterval");
    Objects.requireNonNull(readerDrainTimeout, "readerDrainTimeout");
    Objects.requireNonNull(futureWindow, "futureWindow");
    if (blockRange.toMillis() < 1) {
      throw new IllegalArgumentException("blockRange must be at least 1 ms: " + blockRange);
    }
    if (retentionTime.isNegative()) {
      throw new IllegalArgumentException("retentionTime must not be negative: " + retentionTime);
    }
    if (retentionBytes < 0) {
      throw new IllegalArgumentException("retentionBytes must not be negative: " + retentionBytes);
    }
    if (walSegmentBytes < 1024 || walSegmentBytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "walSegmentBytes must be in [1 KiB, 2 GiB): " + walSegmentBytes);
    }
    if (walSyncInterval.isNegative() || walSyncInterval.isZero()) {
      throw new IllegalArgumentException("walSyncInterval must be positive: " + walSyncInterval);
    }
    if (compactionInterval.isNegative() || compactionInterval.isZero()) {
      throw new IllegalArgumentException(
          "compactionInterval must be positive: " + compactionInterval);
    }
    if (readerDrainTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "readerDrainTimeout must not be negative: " + readerDrainTimeout);
    }
    if (futureWindow.toMillis() < 1) {
      throw new IllegalArgumentException("futureWindow must be at least 1 ms: " + futureWindow);
    }
  }

  /** Options with the default future window ({@link #DEFAULT_FUTURE_WINDOW}). */
  public TsdbOptions(
      Duration blockRange,
      Duration retentionTime,
      long retentionBytes,
      long walSegmentBytes,
      Duration walSyncInterval,
      Duration compactionInterval,
      Duration readerDrainTimeout) {
    this(
        blockRange,
        retentionTime,
        retentionBytes,
        walSegmentBytes,
        walSyncInterval,
        compactionInterval,
        readerDrainTimeout,
        DEFAULT_FUTURE_WINDOW);
  }

  public static TsdbOptions defaults() {
    return new TsdbOptions(
        DEFAULT_BLOCK_RANGE,
        DEFAULT_RETENTION_TIME,
        DEFAULT_RETENTION_BYTES,
        DEFAULT_WAL_SEGMENT_BYTES,
        DEFAULT_WAL_SYNC_INTERVAL,
        DEFAULT_COMPACTION_INTERVAL,
        DEFAULT_READER_DRAIN_TIMEOUT,
        DEFAULT_FUTURE_WINDOW);
  }

  public TsdbOptions withBlockRange(Duration d) {
    return new TsdbOptions(
        d,
        retentionTime,
        retentionBytes,
        walSegmentBytes,
        walSyncInterval,
        compactionInterval,
        readerDrainTimeout,
        futureWindow);
  }

  public TsdbOptions withRetentionTime(Duration d) {
    return new TsdbOptions(
        blockRange,
        d,
        retentionBytes,
        walSegmentBytes,
        walSyncInterval,
        compactionInterval,
        readerDrainTimeout,
        futureWindow);
  }

  public TsdbOptions withRetentionBytes(long bytes) {
    return new TsdbOptions(
        blockRange,
        retentionTime,
        bytes,
        walSegmentBytes,
        walSyncInterval,
        compactionInterval,
        readerDrainTimeout,
        futureWindow);
  }

  public TsdbOptions withWalSegmentBytes(long bytes) {
    return new TsdbOptions(
        blockRange,
        retentionTime,
        retentionBytes,
        bytes,
        walSyncInterval,
        compactionInterval,
        readerDrainTimeout,
        futureWindow);
  }

  public TsdbOptions withWalSyncInterval(Duration d) {
    return new TsdbOptions(
        blockRange,
        retentionTime,
        retentionBytes,
        walSegmentBytes,
        d,
        compactionInterval,
        readerDrainTimeout,
        futureWindow);
  }

  public TsdbOptions withCompactionInterval(Duration d) {
    return new TsdbOptions(
        blockRange,
        retentionTime,
        retentionBytes,
        walSegmentBytes,
        walSyncInterval,
        d,
        readerDrainTimeout,
        futureWindow);
  }

  public TsdbOptions withReaderDrainTimeout(Duration d) {
    return new TsdbOptions(
        blockRange,
        retentionTime,
        retentionBytes,
        walSegmentBytes,
        walSyncInterval,
        compactionInterval,
        d,
        futureWindow);
  }

  public TsdbOptions withFutureWindow(Duration d) {
    return new TsdbOptions(
        blockRange,
        retentionTime,
        retentionBytes,
        walSegmentBytes,
        walSyncInterval,
        compactionInterval,
        readerDrainTimeout,
        d);
  }

  /**
   * Block ranges compaction merges into: the block range times 3, 9, ... (Prometheus's exponential
   * ranges), up to 10% of the retention time or 31 days.
   */
  long[] compactionRanges() {
    long max = MAX_BLOCK_DURATION.toMillis();
    if (!retentionTime.isZero()) {
      max = Math.min(max, retentionTime.toMillis() / 10);
    }
    return dev.infermon.tsdb.block.CompactionPlanner.exponentialRanges(
        blockRange.toMillis(), 10, 3, Math.max(max, blockRange.toMillis()));
  }
}
