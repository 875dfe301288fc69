package dev.infermon.tsdb;

import java.util.TreeMap;

/**
 * Counts open queriers by the epoch in which they were opened, so head truncation can wait until
 * every querier that may not see a newly added block has closed (Prometheus's
 * WaitForPendingReadersInTimeRange). Thread-safe.
 */
final class ReaderTracker {
  private final TreeMap<Long, Integer> open = new TreeMap<>();
  private long epoch;

  /** Registers a new reader; returns its epoch for {@link #exit}. */
  synchronized long enter() {
    open.merge(epoch, 1, Integer::sum);
    return epoch;
  }

  synchronized void exit(long e) {
    Integer n = open.get(e);
    if (n == null) {
      return;
    }
    if (n == 1) {
      open.remove(e);
      notifyAll();
    } else {
      open.put(e, n - 1);
    }
  }

  /** Starts a new epoch: readers entering from now on see the latest state. */
  synchronized long advance() {
    return ++epoch;
  }

  /**
   * Waits until no reader of an epoch before {@code e} is open, at most {@code timeoutMs}.
   *
   * @return true when they all closed, false on timeout
   */
  synchronized boolean awaitBefore(long e, long timeoutMs) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
    while (!open.isEmpty() && open.firstKey() < e) {
      long left = (deadline - System.nanoTime()) / 1_000_000L;
      if (left <= 0) {
        return false;
      }
      wait(left);
    }
    return true;
  }
}
