package dev.infermon.storage;

/**
 * Iterates a series' samples in increasing time order. Starts before the first sample: call {@link
 * #next()} or {@link #seek(long)} before reading. Not thread-safe.
 */
public interface SampleIterator {
  /** Advances to the next sample; false when there is none. */
  boolean next();

  /**
   * Advances to the first sample at or after {@code t} (never backwards: if the current sample is
   * already at or after {@code t}, stays). False when there is none.
   */
  boolean seek(long t);

  /** Time of the current sample in milliseconds. */
  long timestamp();

  /** Value of the current sample (may be {@link dev.infermon.model.value.StaleNaN}). */
  double value();

  /** An iterator over nothing. */
  SampleIterator EMPTY =
      new SampleIterator() {
        @Override
        public boolean next() {
          return false;
        }

        @Override
        public boolean seek(long t) {
          return false;
        }

        @Override
        public long timestamp() {
          throw new IllegalStateException("empty iterator");
        }

        @Override
        public double value() {
          throw new IllegalStateException("empty iterator");
        }
      };
}
