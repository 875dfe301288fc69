package dev.infermon.web.api;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Prometheus's {@code --query.max-concurrency}: at most this many queries run at once; the next
 * ones wait for a slot. A query's timeout covers its wait, as Prometheus's (its context's deadline
 * is set before the query queue): one that waits longer than its timeout fails with {@code query
 * timed out in query queue} (a {@code timeout} error, 503), and one that gets a slot runs with what
 * the wait left of its timeout. Thread-safe.
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

  /** A query run in a slot, given the time left of its timeout. */
  @FunctionalInterface
  interface Body<T> {
    T run(Duration remaining);
  }

  /** Runs {@code body} in a slot, waiting at most {@code timeoutMs} for one. */
  <T> T run(long timeoutMs, Body<T> body) {
    long start = System.nanoTime();
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
      throw queueTimeout();
    }
    try {
      long left = TimeUnit.MILLISECONDS.toNanos(timeoutMs) - (System.nanoTime() - start);
      if (left <= 0) {
        throw queueTimeout();
      }
      return body.run(Duration.ofNanos(left));
    } finally {
      slots.release();
    }
  }

  private static ApiException queueTimeout() {
    return new ApiException(ErrorType.TIMEOUT, "query timed out in query queue");
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
