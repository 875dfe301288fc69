package dev.infermon.tsdb.head;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Transaction buffers handed from one head appender to the next. A scrape of a 500-series page grew
 * a fresh {@link SeriesSampleBuffer} from 64 entries to 512 every time: about 50 KB of short-lived
 * arrays per scrape, two thirds of infermon's allocation in the scrape benchmark, and young
 * collections to match. A finished appender gives its buffer back here, emptied, and the next one
 * takes it with its arrays already grown.
 *
 * <p>Bounded in count ({@link #SLOTS}, about the number of appenders working at once) and in what a
 * kept buffer may hold ({@link #MAX_KEPT_SAMPLES}), so one huge transaction does not pin its arrays
 * for the life of the head.
 *
 * <p>Threading: thread-safe and lock-free; a buffer is owned by at most one appender at a time.
 */
final class SampleBufferPool {
  static final int SLOTS = 8;
  static final int MAX_KEPT_SAMPLES = 1 << 16;

  private final AtomicReferenceArray<SeriesSampleBuffer> slots = new AtomicReferenceArray<>(SLOTS);

  /** A kept buffer, or a new one when none is free. */
  SeriesSampleBuffer take() {
    for (int i = 0; i < SLOTS; i++) {
      SeriesSampleBuffer b = slots.get(i);
      if (b != null && slots.compareAndSet(i, b, null)) {
        return b;
      }
    }
    return new SeriesSampleBuffer();
  }

  /** Keeps {@code b} for a later appender, unless it grew too large or every slot is full. */
  void give(SeriesSampleBuffer b) {
    b.clear();
    if (b.capacity() > MAX_KEPT_SAMPLES) {
      return;
    }
    for (int i = 0; i < SLOTS; i++) {
      if (slots.get(i) == null && slots.compareAndSet(i, null, b)) {
        return;
      }
    }
  }

  /** Buffers kept now (for tests). */
  int kept() {
    int n = 0;
    for (int i = 0; i < SLOTS; i++) {
      if (slots.get(i) != null) {
        n++;
      }
    }
    return n;
  }
}
