package dev.infermon.tsdb.head;

import dev.infermon.storage.SampleIterator;
import dev.infermon.tsdb.chunkenc.XorIterator;

/** Iterates a {@link SeriesSnapshot}'s samples within {@code [mint, maxt]}, chunk by chunk. */
final class HeadSeriesIterator implements SampleIterator {
  private final SeriesSnapshot snap;
  private final long mint;
  private final long maxt;
  private int chunk = -1;
  private XorIterator it;
  private boolean done;
  private boolean positioned;

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
        long t = it.timestamp();
        if (t > maxt) {
          return finish();
        }
        if (t >= mint) {
          positioned = true;
          return true;
        }
        // Before the range: only in the first chunk; jump straight to mint.
        if (!it.seek(mint)) {
          continue;
        }
        if (it.timestamp() > maxt) {
          return finish();
        }
        positioned = true;
        return true;
      }
      if (!openNextChunk(mint)) {
        return finish();
      }
    }
  }

  @Override
  public boolean seek(long t) {
    if (done) {
      return false;
    }
    if (positioned && it.timestamp() >= t) {
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
        if (it.timestamp() > maxt) {
          return finish();
        }
        positioned = true;
        return true;
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
    it = snap.chunkIterator(i);
    return true;
  }

  private boolean finish() {
    done = true;
    positioned = false;
    return false;
  }

  @Override
  public long timestamp() {
    check();
    return it.timestamp();
  }

  @Override
  public double value() {
    check();
    return it.value();
  }

  private void check() {
    if (!positioned) {
      throw new IllegalStateException("no current sample");
    }
  }
}
