package dev.infermon.storage;

/**
 * A series' samples read as a shared {@link Prefix} (up to {@code upTo}) followed by the storage's
 * own iterator after it: either one already on its first sample after {@code upTo} (the reader that
 * decoded the prefix goes on where it stopped), or one opened from the series when the prefix is
 * used up and sought past {@code upTo}; neither when nothing can follow. Not thread-safe.
 */
final class PrefixedIterator implements SampleIterator {
  private final Prefix p;
  private final long upTo;
  private Series source; // opened when the prefix is used up; null once opened or when not needed
  private SampleIterator rest; // on its current sample once inRest, null when nothing follows
  private int i = -1; // the current prefix sample while !inRest
  private boolean inRest;

  /**
   * @param source the series to open after the prefix, or null
   * @param positioned an iterator already on its first sample after {@code upTo}, or null
   */
  PrefixedIterator(Prefix p, Series source, SampleIterator positioned, long upTo) {
    this.p = p;
    this.source = positioned == null ? source : null;
    this.rest = positioned;
    this.upTo = upTo;
  }

  /** Leaves the prefix: true when the rest sits on a sample. */
  private boolean enterRest() {
    inRest = true;
    i = p.n;
    if (source != null) {
      SampleIterator it = source.iterator();
      source = null;
      rest = it.seek(upTo + 1) ? it : null;
    }
    return rest != null;
  }

  @Override
  public boolean next() {
    if (inRest) {
      if (rest != null && rest.next()) {
        return true;
      }
      rest = null;
      return false;
    }
    if (i + 1 < p.n) {
      i++;
      return true;
    }
    return enterRest();
  }

  @Override
  public boolean seek(long t) {
    if (inRest) {
      if (rest != null && rest.seek(t)) {
        return true;
      }
      rest = null;
      return false;
    }
    int from = Math.max(i, 0);
    if (from < p.n && p.t[from] >= t && i >= 0) {
      return true; // never backwards
    }
    int at = firstAtOrAfter(from, t);
    if (at < p.n) {
      i = at;
      return true;
    }
    if (!enterRest()) {
      return false;
    }
    if (rest.seek(t)) {
      return true;
    }
    rest = null;
    return false;
  }

  /** The first prefix index at or after {@code from} whose time is at or after {@code t}. */
  private int firstAtOrAfter(int from, long t) {
    int lo = from;
    int hi = p.n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (p.t[mid] < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public long timestamp() {
    if (inRest) {
      if (rest == null) {
        throw new IllegalStateException("no current sample");
      }
      return rest.timestamp();
    }
    if (i < 0) {
      throw new IllegalStateException("no current sample");
    }
    return p.t[i];
  }

  @Override
  public double value() {
    if (inRest) {
      if (rest == null) {
        throw new IllegalStateException("no current sample");
      }
      return rest.value();
    }
    if (i < 0) {
      throw new IllegalStateException("no current sample");
    }
    return p.v[i];
  }

  /** The prefix's run by one copy, then the rest's own batches. */
  @Override
  public int nextBatch(long[] ts, double[] vs, int off, int len, long maxt) {
    if (inRest) {
      if (rest == null) {
        return ~0;
      }
      int r = rest.nextBatch(ts, vs, off, len, maxt);
      if (r < 0) {
        rest = null;
      }
      return r;
    }
    int from = i + 1;
    int end = Math.min(p.n, from + len);
    int upToMaxt = maxt >= upTo ? end : Math.min(end, firstAtOrAfter(from, maxt + 1));
    int k = upToMaxt - from;
    System.arraycopy(p.t, from, ts, off, k);
    System.arraycopy(p.v, from, vs, off, k);
    if (upToMaxt < end) {
      i = upToMaxt; // on the first sample after maxt, as next() would leave it
      return k;
    }
    i = from + k - 1;
    if (k == len) {
      return k;
    }
    if (!enterRest()) {
      return ~k;
    }
    long t = rest.timestamp();
    if (t > maxt) {
      return k;
    }
    ts[off + k] = t;
    vs[off + k] = rest.value();
    k++;
    if (k == len) {
      return k;
    }
    int r = rest.nextBatch(ts, vs, off + k, len - k, maxt);
    if (r < 0) {
      rest = null;
      return ~(k + ~r);
    }
    return k + r;
  }
}
