package dev.infermon.remote.write;

import dev.infermon.model.labels.Labels;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One shard's FIFO of samples: parallel arrays in a ring that grows on demand (the queue-wide limit
 * is enforced by {@link QueueManager}, not here). Producers are committing threads; the one
 * consumer is the shard's sender, woken when a full request's worth is waiting or at its deadline.
 *
 * <p>Thread-safe. {@link #take} copies into arrays the consumer owns, so producers never see them.
 */
final class ShardBuffer {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition ready = lock.newCondition();
  private final int wakeAt;
  private Labels[] labels = new Labels[1024];
  private long[] timestamps = new long[1024];
  private double[] values = new double[1024];
  private int head;
  private int size;
  private boolean closed;

  /**
   * @param wakeAt how many queued samples wake the consumer before its deadline
   */
  ShardBuffer(int wakeAt) {
    this.wakeAt = wakeAt;
  }

  void add(Labels l, long t, double v) {
    lock.lock();
    try {
      if (size == labels.length) {
        grow();
      }
      int i = (head + size) % labels.length;
      labels[i] = l;
      timestamps[i] = t;
      values[i] = v;
      size++;
      if (size == wakeAt) {
        ready.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until {@code max} samples are queued, {@code deadlineNanos} ({@link System#nanoTime()})
   * passes, or the buffer is closed; then moves up to {@code max} samples into the arrays.
   *
   * @return how many samples were moved; 0 only at the deadline with nothing queued, or when closed
   *     and empty
   */
  int take(Labels[] l, long[] t, double[] v, int max, long deadlineNanos)
      throws InterruptedException {
    lock.lock();
    try {
      while (size < max && !closed) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          break;
        }
        ready.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(250)));
      }
      int n = Math.min(size, max);
      for (int k = 0; k < n; k++) {
        int i = (head + k) % labels.length;
        l[k] = labels[i];
        t[k] = timestamps[i];
        v[k] = values[i];
        labels[i] = null;
      }
      head = (head + n) % labels.length;
      size -= n;
      return n;
    } finally {
      lock.unlock();
    }
  }

  /** Samples queued now. */
  int size() {
    lock.lock();
    try {
      return size;
    } finally {
      lock.unlock();
    }
  }

  /** Wakes the consumer for good; samples already queued can still be taken. */
  void close() {
    lock.lock();
    try {
      closed = true;
      ready.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Empties the buffer, returning how many samples were discarded. */
  int clear() {
    lock.lock();
    try {
      int n = size;
      for (int k = 0; k < n; k++) {
        labels[(head + k) % labels.length] = null;
      }
      head = 0;
      size = 0;
      return n;
    } finally {
      lock.unlock();
    }
  }

  private void grow() {
    int n = labels.length * 2;
    Labels[] nl = new Labels[n];
    long[] nt = new long[n];
    double[] nv = new double[n];
    for (int k = 0; k < size; k++) {
      int i = (head + k) % labels.length;
      nl[k] = labels[i];
      nt[k] = timestamps[i];
      nv[k] = values[i];
    }
    labels = nl;
    timestamps = nt;
    values = nv;
    head = 0;
  }
}
