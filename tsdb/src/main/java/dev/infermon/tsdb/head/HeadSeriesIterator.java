package dev.infermon.tsdb.head;

import dev.infermon.storage.SampleIterator;
import dev.infermon.tsdb.chunkenc.XorIterator;

/**
 * Iterates a {@link SeriesSnapshot}'s samples within {@code [mint, maxt]}, chunk by chunk. The
 * current sample is copied out of the chunk iterator when the iterator moves, so {@link
 * #timestamp()} and {@link #value()} (called once or more per sample by merges and the engine) are
 * plain field reads. Not thread-safe; the snapshot is immutable.
 */
final class HeadSeriesIterator implements SampleIterator {
  private final SeriesSnapshot snap;
  private final long mint;
  private final long maxt;
  private int chunk = -1;
  private XorIterator it;
  private byte[] scratch; // holds a chunk copied out of a mapped segment; reused chunk to chunk
  private boolean done;
  private boolean positioned;

  // The current sample, valid while positioned.
  private long t;
  private double v;

  HeadSeriesIterator(SeriesSnapshot snap, long mint, long maxt) {
    this.snap = snap;
    this.mint = mint;
    this.maxt = maxt;
  }

  @Override
  public boolean next() {
    if (done) {
      return false;
    }
    while (true) {
      if (it != null && it.next()) {
        long ts = it.timestamp();
        if (ts > maxt) {
          return finish();
        }
        if (ts >= mint) {
          return at(ts);
        }
        // Before the range: only in the first chunk; jump straight to mint.
        if (!it.seek(mint)) {
          continue;
        }
        ts = it.timestamp();
        if (ts > maxt) {
          return finish();
        }
        return at(ts);
      }
      if (!openNextChunk(mint)) {
        return finish();
      }
    }
  }

  @Override
  public int nextBatch(long[] ts, double[] vs, int off, int len, long maxt) {
    int k = 0;
    while (k < len) {
      if (!positioned) {
        // Before the first sample (which may need the jump to mint), or done: the ordinary way.
        int s = SampleIterator.nextInto(this, ts, vs, off + k, maxt);
        if (s <= 0) {
          return s < 0 ? ~k : k;
        }
        k++;
        continue;
      }
      // The chunk iterator sits on the current sample; the ones after it are all past mint.
      int r = it.nextBatch(ts, vs, off + k, len - k, Math.min(maxt, this.maxt));
      int got = r < 0 ? ~r : r;
      if (got > 0) {
        k += got;
        t = ts[off + k - 1];
        v = vs[off + k - 1];
      }
      if (r < 0) {
        // The chunk ran out: next() opens the following one (its iterator stays exhausted).
        int s = SampleIterator.nextInto(this, ts, vs, off + k, maxt);
        if (s <= 0) {
          return s < 0 ? ~k : k;
        }
        k++;
        continue;
      }
      if (k == len) {
        return k;
      }
      // Stopped on a sample after the caller's maxt or after this iterator's.
      long nt = it.timestamp();
      if (nt > this.maxt) {
        finish();
        return ~k;
      }
      at(nt);
      return k;
    }
    return k;
  }

  @Override
  public boolean seek(long t) {
    if (done) {
      return false;
    }
    if (positioned && this.t >= t) {
      return true;
    }
    long target = Math.max(t, mint);
    // Skip whole chunks that end before the target without decoding them.
    if (it == null || snap.chunkMax(chunk) < target) {
      if (!openNextChunk(target)) {
        return finish();
      }
    }
    while (true) {
      if (it.seek(target)) {
        long ts = it.timestamp();
        if (ts > maxt) {
          return finish();
        }
        return at(ts);
      }
      if (!openNextChunk(target)) {
        return finish();
      }
    }
  }

  /** Moves to the next chunk that may hold samples at or after {@code from} within the range. */
  private boolean openNextChunk(long from) {
    int n = snap.chunks();
    int i = chunk + 1;
    while (i < n && snap.chunkMax(i) < from) {
      i++;
    }
    if (i >= n || snap.chunkMin(i) > maxt) {
      return false;
    }
    chunk = i;
    // One decoder per series iterator, moved from chunk to chunk.
    if (it == null) {
      it = snap.chunkIterator(i);
    } else {
      scratch = snap.resetIterator(it, i, scratch);
    }
    return true;
  }

  private boolean at(long ts) {
    t = ts;
    v = it.value();
    positioned = true;
    return true;
  }

  private boolean finish() {
    done = true;
    positioned = false;
    return false;
  }

  @Override
  public long timestamp() {
    if (!positioned) {
      throw noSample();
    }
    return t;
  }

  @Override
  public double value() {
    if (!positioned) {
      throw noSample();
    }
    return v;
  }

  // Kept out of line so the accessors stay small enough to inline.
  private static IllegalStateException noSample() {
    return new IllegalStateException("no current sample");
  }
}
