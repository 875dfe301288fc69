package dev.infermon.storage;

/**
 * Interleaves several sample iterators by time. At a timestamp present in more than one, the sample
 * of the lowest-indexed iterator is returned and the others skipped. A linear scan picks the
 * minimum: merges span a handful of sources (head and a few blocks), where a heap costs more. Not
 * thread-safe.
 */
public final class ChainSampleIterator implements SampleIterator {
  private final SampleIterator[] its;
  private final boolean[] has;
  private boolean started;
  private int cur = -1;

  /** Iterators in priority order; the array is owned by the result. */
  public ChainSampleIterator(SampleIterator[] its) {
    this.its = its;
    this.has = new boolean[its.length];
  }

  @Override
  public boolean next() {
    if (!started) {
      started = true;
      for (int i = 0; i < its.length; i++) {
        has[i] = its[i].next();
      }
    } else {
      if (cur < 0) {
        return false;
      }
      long t = its[cur].timestamp();
      for (int i = 0; i < its.length; i++) {
        if (has[i] && its[i].timestamp() == t) {
          has[i] = its[i].next();
        }
      }
    }
    return pick();
  }

  @Override
  public boolean seek(long t) {
    if (started) {
      if (cur < 0) {
        return false;
      }
      if (its[cur].timestamp() >= t) {
        return true;
      }
      for (int i = 0; i < its.length; i++) {
        if (has[i] && its[i].timestamp() < t) {
          has[i] = its[i].seek(t);
        }
      }
    } else {
      started = true;
      for (int i = 0; i < its.length; i++) {
        has[i] = its[i].seek(t);
      }
    }
    return pick();
  }

  private boolean pick() {
    cur = -1;
    long min = Long.MAX_VALUE;
    for (int i = 0; i < its.length; i++) {
      if (has[i] && (cur < 0 || its[i].timestamp() < min)) {
        min = its[i].timestamp();
        cur = i;
      }
    }
    return cur >= 0;
  }

  @Override
  public long timestamp() {
    return current().timestamp();
  }

  @Override
  public double value() {
    return current().value();
  }

  private SampleIterator current() {
    if (cur < 0) {
      throw new IllegalStateException("no current sample");
    }
    return its[cur];
  }
}
