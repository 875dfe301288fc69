package dev.infermon.tsdb.head;

import java.nio.file.Path;
import java.util.Objects;

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
 */
public record HeadOptions(long chunkRangeMs, int samplesPerChunk, HeadLog log, Path chunkDir) {
  /** Prometheus's block length. */
  public static final long DEFAULT_CHUNK_RANGE_MS = 2 * 3_600_000L;

  public HeadOptions {
    if (chunkRangeMs <= 0) {
      throw new IllegalArgumentException("chunk range must be positive, got " + chunkRangeMs);
    }
    if (samplesPerChunk < 4 || samplesPerChunk > 0x7fff) {
      throw new IllegalArgumentException(
          "samples per chunk must be in [4, 32767], got " + samplesPerChunk);
    }
    Objects.requireNonNull(log, "log");
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
    return new HeadOptions(chunkRangeMs, samplesPerChunk, log, chunkDir);
  }

  public HeadOptions withChunkRangeMs(long ms) {
    return new HeadOptions(ms, samplesPerChunk, log, chunkDir);
  }

  /** These options with completed chunks in {@code dir} (null: on the heap). */
  public HeadOptions withChunkDir(Path dir) {
    return new HeadOptions(chunkRangeMs, samplesPerChunk, log, dir);
  }
}
