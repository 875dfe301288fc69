package dev.infermon.remote.write;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one remote-write queue, read by the process's own metrics ({@code
 * prometheus_remote_storage_*}). Every sample that enters {@link QueueManager#accept} ends in
 * exactly one of: sent, failed (rejected by the receiver for good), dropped (never sent: write
 * relabeling, a full queue, or shutdown) or still pending. Nothing is lost silently.
 *
 * <p>Thread-safe; values are monotonic except {@link #pendingSamples()}.
 */
public final class QueueStats {
  final LongAdder samplesIn = new LongAdder();
  final LongAdder sent = new LongAdder();
  final LongAdder failed = new LongAdder();
  final LongAdder retried = new LongAdder();
  final LongAdder droppedRelabel = new LongAdder();
  final LongAdder droppedQueueFull = new LongAdder();
  final LongAdder droppedShutdown = new LongAdder();
  final AtomicLong pending = new AtomicLong();
  final LongAccumulator highestSentMs = new LongAccumulator(Math::max, Long.MIN_VALUE);
  final LongAccumulator highestInMs = new LongAccumulator(Math::max, Long.MIN_VALUE);
  final LongAdder requests = new LongAdder();
  final LongAdder requestFailures = new LongAdder();
  final LongAdder bytesSent = new LongAdder();
  final LongAdder metadataSent = new LongAdder();
  final LongAdder metadataFailed = new LongAdder();

  QueueStats() {}

  /** Samples handed to the queue by committed transactions. */
  public long samplesIn() {
    return samplesIn.sum();
  }

  /** Samples the receiver accepted (2xx). */
  public long sentSamples() {
    return sent.sum();
  }

  /** Samples the receiver rejected with a non-retryable status (4xx other than retried 429). */
  public long failedSamples() {
    return failed.sum();
  }

  /** Samples sent again after a recoverable failure (5xx, 429 when enabled, network errors). */
  public long retriedSamples() {
    return retried.sum();
  }

  /** Samples dropped on purpose by {@code write_relabel_configs}. */
  public long droppedByRelabeling() {
    return droppedRelabel.sum();
  }

  /** Samples lost because the queue was full (the receiver was slow or away for too long). */
  public long droppedQueueFull() {
    return droppedQueueFull.sum();
  }

  /** Samples still queued when the queue was closed and its flush deadline passed. */
  public long droppedAtShutdown() {
    return droppedShutdown.sum();
  }

  /** Samples waiting in the queue or in a request under way. */
  public long pendingSamples() {
    return pending.get();
  }

  /** Newest sample timestamp the receiver accepted, in ms; {@link Long#MIN_VALUE} before any. */
  public long highestSentTimestampMs() {
    return highestSentMs.get();
  }

  /** Newest sample timestamp handed to the queue, in ms; {@link Long#MIN_VALUE} before any. */
  public long highestInTimestampMs() {
    return highestInMs.get();
  }

  /** HTTP requests made (each try counts). */
  public long requests() {
    return requests.sum();
  }

  /** Requests that failed (non-2xx or a network error). */
  public long requestFailures() {
    return requestFailures.sum();
  }

  /** Compressed bytes of the requests the receiver accepted. */
  public long bytesSent() {
    return bytesSent.sum();
  }

  /** Metadata entries the receiver accepted. */
  public long metadataSent() {
    return metadataSent.sum();
  }

  /** Metadata entries given up on. */
  public long metadataFailed() {
    return metadataFailed.sum();
  }

  @Override
  public String toString() {
    return "in="
        + samplesIn()
        + " sent="
        + sentSamples()
        + " failed="
        + failedSamples()
        + " retried="
        + retriedSamples()
        + " dropped(relabel="
        + droppedByRelabeling()
        + " full="
        + droppedQueueFull()
        + " shutdown="
        + droppedAtShutdown()
        + ") pending="
        + pendingSamples();
  }
}
