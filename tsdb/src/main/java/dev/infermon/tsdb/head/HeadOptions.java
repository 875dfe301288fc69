package dev.infermon.tsdb.head;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * How a {@link Head} is shaped.
 *
 * @param chunkRangeMs the block length the head's chunks align to (Prometheus: 2 h); also sets the
 *     appendable window, which ends half a range before the newest sample
 * @param samplesPerChunk the target number of samples per chunk (Prometheus: 120); a chunk is cut
 *     at twice this at the latest
 * @param log the write-ahead hook
 * @param chunkDir where completed chunks are written and memory-mapped (a cache of the head,
 *     emptied when the head is created), or null to keep them on the Java heap
 * @param futureWindowMs how far ahead of {@code clock} a sample may lie; later ones are refused
 *     with {@link dev.infermon.storage.TooFarInFutureException} ({@link #DEFAULT_FUTURE_WINDOW_MS})
 * @param clock the wall clock in milliseconds the future window is measured from
 */
public record HeadOptions(
    long chunkRangeMs,
    int samplesPerChunk,
    HeadLog log,
    Path chunkDir,
    long futureWindowMs,
    LongSupplier clock) {
  /** Prometheus's block length. */
  public static final long DEFAULT_CHUNK_RANGE_MS = 2 * 3_600_000L;

  /**
   * Prometheus's scrape loop refuses samples more than 10 minutes ahead of its clock ({@code
   * maxAheadTime} in {@code scrape/scrape.go}), and so does its remote-write handler.
   */
  public static final long DEFAULT_FUTURE_WINDOW_MS = 10 * 60_000L;

  public HeadOptions {
    if (chunkRangeMs <= 0) {
      throw new IllegalArgumentException("chunk range must be positive, got " + chunkRangeMs);
    }
    if (samplesPerChunk < 4 || samplesPerChunk > 0x7fff) {
      throw new IllegalArgumentException(
          "samples per chunk must be in [4, 32767], got " + samplesPerChunk);
    }
    if (futureWindowMs <= 0) {
      throw new IllegalArgumentException("future window must be positive, got " + futureWindowMs);
    }
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(clock, "clock");
  }

  /** Options with the default future window on the system clock. */
  public HeadOptions(long chunkRangeMs, int samplesPerChunk, HeadLog log, Path chunkDir) {
    this(
        chunkRangeMs,
        samplesPerChunk,
        log,
        chunkDir,
        DEFAULT_FUTURE_WINDOW_MS,
        System::currentTimeMillis);
  }

  /** Options that keep completed chunks on the Java heap. */
  public HeadOptions(long chunkRangeMs, int samplesPerChunk, HeadLog log) {
    this(chunkRangeMs, samplesPerChunk, log, null);
  }

  /** Prometheus's defaults and no log. */
  public static HeadOptions defaults() {
    return new HeadOptions(DEFAULT_CHUNK_RANGE_MS, 120, HeadLog.NONE);
  }

  public HeadOptions withLog(HeadLog log) {
    return new HeadOptions(chunkRangeMs, samplesPerChunk, log, chunkDir, futureWindowMs, clock);
  }

  public HeadOptions withChunkRangeMs(long ms) {
    return new HeadOptions(ms, samplesPerChunk, log, chunkDir, futureWindowMs, clock);
  }

  /** These options with completed chunks in {@code dir} (null: on the heap). */
  public HeadOptions withChunkDir(Path dir) {
    return new HeadOptions(chunkRangeMs, samplesPerChunk, log, dir, futureWindowMs, clock);
  }

  /** These options refusing samples more than {@code ms} ahead of {@code clock}. */
  public HeadOptions withFutureWindow(long ms, LongSupplier clock) {
    return new HeadOptions(chunkRangeMs, samplesPerChunk, log, chunkDir, ms, clock);
  }

  /** The latest sample time accepted now: the clock plus the window, saturating. */
  long maxValidTime() {
    long now = clock.getAsLong();
    long t = now + futureWindowMs;
    return t < now ? Long.MAX_VALUE : t;
  }
}
