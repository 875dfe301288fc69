package dev.infermon.storage;

/**
 * Interleaves several sample iterators by time. At a timestamp present in more than one, the sample
 * of the lowest-indexed iterator is returned and the others skipped. Not thread-safe.
 *
 * <p>Built for the common merge of a few older blocks then the head, which rarely overlap in time.
 * Each sub-iterator's current timestamp is cached, so choosing the next sample reads longs instead
 * of making virtual calls. Beside the current iterator the chain keeps {@code bound}, the earliest
 * timestamp of all the others: while the current iterator stays below it, no other iterator is
 * consulted (one comparison per sample). Once only one iterator is left, the chain delegates to it
 * with no comparison at all. A linear scan picks the minimum: merges span a handful of sources,
 * where a heap costs more.
 */
public final class ChainSampleIterator implements SampleIterator {
  private final SampleIterator[] its;
  private final long[] ts;
  private final boolean[] has;
  private boolean started;
  private int cur = -1;

  /** Earliest cached timestamp among the live iterators other than {@code cur}. */
  private long bound;

  /** True when {@code cur} is the only live iterator: calls go straight to it. */
  private boolean alone;

  /** Iterators in priority order; the array is owned by the result. */
  public ChainSampleIterator(SampleIterator[] its) {
    this.its = its;
    this.ts = new long[its.length];
    this.has = new boolean[its.length];
  }

  @Override
  public boolean next() {
    if (alone) {
      if (its[cur].next()) {
        return true;
      }
      return exhaustAlone();
    }
    if (!started) {
      started = true;
      for (int i = 0; i < its.length; i++) {
        advanced(i, its[i].next());
      }
      return pick();
    }
    if (cur < 0) {
      return false;
    }
    long t = ts[cur];
    if (bound > t) {
      // No other iterator sits at t, so only the current one moves; it stays current while it
      // remains below every other.
      SampleIterator c = its[cur];
      if (c.next()) {
        long nt = c.timestamp();
        ts[cur] = nt;
        if (nt < bound) {
          return true;
        }
      } else {
        has[cur] = false;
      }
      return pick();
    }
    return pickAfter(t, false);
  }

  /**
   * Reads runs from one source at a time: the current source's samples before {@code bound} (or all
   * of them once it is alone) need no merging and are read by its own {@code nextBatch}.
   */
  @Override
  public int nextBatch(long[] ts, double[] vs, int off, int len, long maxt) {
    int k = 0;
    while (k < len) {
      if (alone) {
        int r = its[cur].nextBatch(ts, vs, off + k, len - k, maxt);
        if (r < 0) {
          exhaustAlone();
          return ~(k + ~r);
        }
        return k + r;
      }
      if (!started || cur < 0 || bound <= this.ts[cur]) {
        // Starting, done, or sources at the same time: one sample the ordinary way.
        int s = SampleIterator.nextInto(this, ts, vs, off + k, maxt);
        if (s <= 0) {
          return s < 0 ? ~k : k;
        }
        k++;
        continue;
      }
      SampleIterator c = its[cur];
      int r = c.nextBatch(ts, vs, off + k, len - k, Math.min(maxt, bound - 1));
      int got = r < 0 ? ~r : r;
      if (got > 0) {
        k += got;
        this.ts[cur] = ts[off + k - 1];
      }
      if (r >= 0 && k == len) {
        return k;
      }
      if (r >= 0) {
        // c sits on a sample after maxt or at/after bound.
        long nt = c.timestamp();
        this.ts[cur] = nt;
        if (nt < bound) {
          return k; // after maxt, and still the current source
        }
      } else {
        has[cur] = false;
      }
      if (!pick()) {
        return ~k;
      }
      long t = this.ts[cur];
      if (t > maxt) {
        return k;
      }
      ts[off + k] = t;
      vs[off + k] = its[cur].value();
      k++;
    }
    return k;
  }

  @Override
  public boolean seek(long t) {
    if (alone) {
      if (its[cur].seek(t)) {
        return true;
      }
      return exhaustAlone();
    }
    if (!started) {
      started = true;
      for (int i = 0; i < its.length; i++) {
        advanced(i, its[i].seek(t));
      }
      return pick();
    }
    if (cur < 0) {
      return false;
    }
    if (ts[cur] >= t) {
      return true;
    }
    return pickAfter(t, true);
  }

  private void advanced(int i, boolean ok) {
    has[i] = ok;
    if (ok) {
      ts[i] = its[i].timestamp();
    }
  }

  private boolean exhaustAlone() {
    has[cur] = false;
    cur = -1;
    alone = false;
    return false;
  }

  /**
   * Moves every live iterator at {@code t} to its next sample ({@code seek} false), or every one
   * before {@code t} to {@code t} ({@code seek} true), then picks as {@link #pick()} does, in one
   * pass: on overlapping sources this runs for every sample.
   */
  private boolean pickAfter(long t, boolean seek) {
    int best = -1;
    int live = 0;
    long min = Long.MAX_VALUE;
    long second = Long.MAX_VALUE;
    for (int i = 0; i < its.length; i++) {
      if (!has[i]) {
        continue;
      }
      long ti = ts[i];
      if (seek ? ti < t : ti == t) {
        SampleIterator it = its[i];
        if (!(seek ? it.seek(t) : it.next())) {
          has[i] = false;
          continue;
        }
        ti = it.timestamp();
        ts[i] = ti;
      }
      live++;
      if (best < 0 || ti < min) {
        second = min;
        min = ti;
        best = i;
      } else if (ti < second) {
        second = ti;
      }
    }
    cur = best;
    bound = second;
    alone = live == 1;
    return best >= 0;
  }

  /** Chooses the earliest live iterator (lowest index on ties) and the bound of the others. */
  private boolean pick() {
    int best = -1;
    int live = 0;
    long min = Long.MAX_VALUE;
    long second = Long.MAX_VALUE;
    for (int i = 0; i < its.length; i++) {
      if (!has[i]) {
        continue;
      }
      live++;
      long t = ts[i];
      if (best < 0 || t < min) {
        second = min;
        min = t;
        best = i;
      } else if (t < second) {
        second = t;
      }
    }
    cur = best;
    bound = second;
    alone = live == 1;
    return best >= 0;
  }

  @Override
  public long timestamp() {
    if (alone) {
      return its[cur].timestamp();
    }
    if (cur < 0) {
      throw new IllegalStateException("no current sample");
    }
    return ts[cur];
  }

  @Override
  public double value() {
    if (cur < 0) {
      throw new IllegalStateException("no current sample");
    }
    return its[cur].value();
  }
}
