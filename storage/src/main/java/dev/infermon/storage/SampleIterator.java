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

  /**
   * Reads the following samples into {@code ts} and {@code vs} from index {@code off} on, exactly
   * as calling {@link #next()} until it returns false, or its sample is after {@code maxt}, or
   * {@code len} samples have been stored would, and leaves the iterator where those calls would (on
   * the first sample after {@code maxt} when that is why it stopped).
   *
   * <p>Implementations decode a run of samples in one loop, without virtual calls per sample and
   * field, which is most of the cost of reading long ranges.
   *
   * @return the number of samples stored, {@code k}; or {@code ~k} (negative) when {@link #next()}
   *     returned false, so callers and wrapping iterators know the iterator ran out without asking
   */
  default int nextBatch(long[] ts, double[] vs, int off, int len, long maxt) {
    int k = 0;
    while (k < len) {
      int s = nextInto(this, ts, vs, off + k, maxt);
      if (s <= 0) {
        return s < 0 ? ~k : k;
      }
      k++;
    }
    return k;
  }

  /**
   * One step of a {@link #nextBatch}, for implementations that take some samples the ordinary way:
   * advances {@code it} once and stores its sample at {@code ts[at]}, {@code vs[at]} unless it lies
   * past {@code maxt}.
   *
   * @return 1 when a sample was stored; 0 when it lies past {@code maxt} (not stored, the iterator
   *     sits on it); -1 when {@code next()} returned false
   */
  static int nextInto(SampleIterator it, long[] ts, double[] vs, int at, long maxt) {
    if (!it.next()) {
      return -1;
    }
    long t = it.timestamp();
    if (t > maxt) {
      return 0;
    }
    ts[at] = t;
    vs[at] = it.value();
    return 1;
  }

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
