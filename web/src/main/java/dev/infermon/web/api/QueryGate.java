package dev.infermon.web.api;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Prometheus's {@code --query.max-concurrency}: at most this many queries run at once; the next
 * ones wait for a slot, and one that waits longer than its timeout fails with Prometheus's {@code
 * query timed out in query queue} (a {@code timeout} error, 503). Thread-safe.
 */
final class QueryGate {
  private final Semaphore slots;
  private final int capacity;
  private final AtomicInteger waiting = new AtomicInteger();

  QueryGate(int maxConcurrent) {
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException("max concurrent queries must be >= 1: " + maxConcurrent);
    }
    this.capacity = maxConcurrent;
    this.slots = new Semaphore(maxConcurrent, true);
  }

  /** Runs {@code body} in a slot, waiting at most {@code timeoutMs} for one. */
  <T> T run(long timeoutMs, java.util.function.Supplier<T> body) {
    waiting.incrementAndGet();
    boolean acquired;
    try {
      acquired = slots.tryAcquire(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException(ErrorType.CANCELED, "query was canceled in query queue");
    } finally {
      waiting.decrementAndGet();
    }
    if (!acquired) {
      throw new ApiException(ErrorType.TIMEOUT, "query timed out in query queue");
    }
    try {
      return body.get();
    } finally {
      slots.release();
    }
  }

  /** Queries running now. */
  int running() {
    return capacity - slots.availablePermits();
  }

  int capacity() {
    return capacity;
  }

  /** Queries waiting for a slot now. */
  int waiting() {
    return waiting.get();
  }
}
