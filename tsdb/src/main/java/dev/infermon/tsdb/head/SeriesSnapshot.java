package dev.infermon.tsdb.head;

import dev.infermon.storage.SampleIterator;
import dev.infermon.tsdb.chunkenc.XorChunk;
import dev.infermon.tsdb.chunkenc.XorIterator;

/**
 * A series' chunks as they were at one moment: the completed chunks (reference into the store's
 * view, which keeps them readable, minTime and maxTime: three longs each) and the open chunk's live
 * array with the length and sample count it had. Safe to read without a lock (see {@link
 * XorChunk}'s threading note). Immutable.
 */
record SeriesSnapshot(
    ChunkStore.View store,
    long[] done,
    byte[] open,
    int openLength,
    int openCount,
    long openMin,
    long openMax) {

  int completed() {
    return done.length / 3;
  }

  int chunks() {
    return completed() + (open == null ? 0 : 1);
  }

  long chunkMin(int i) {
    return i < completed() ? done[3 * i + 1] : openMin;
  }

  long chunkMax(int i) {
    return i < completed() ? done[3 * i + 2] : openMax;
  }

  XorIterator chunkIterator(int i) {
    if (i < completed()) {
      return store.iterator(done[3 * i]);
    }
    return XorIterator.over(open, 0, openLength, openCount);
  }

  /** A copy of completed chunk {@code i}'s bytes. */
  byte[] completedBytes(int i) {
    return store.bytes(done[3 * i]);
  }

  /**
   * Points {@code it} at chunk {@code i}, as {@link #chunkIterator} would a new iterator. A chunk
   * that must be copied out of a mapped segment goes into {@code scratch} (grown or made when
   * needed), which the caller passes again for its next chunk; returns the scratch array now.
   */
  byte[] resetIterator(XorIterator it, int i, byte[] scratch) {
    if (i < completed()) {
      return store.reset(it, done[3 * i], scratch);
    }
    it.reset(open, 0, openLength, openCount);
    return scratch;
  }

  long minTime() {
    return chunks() == 0 ? Long.MAX_VALUE : chunkMin(0);
  }

  long maxTime() {
    return chunks() == 0 ? Long.MIN_VALUE : chunkMax(chunks() - 1);
  }

  /** Whether some sample lies in {@code [mint, maxt]}; decodes only when a chunk straddles it. */
  boolean hasSampleIn(long mint, long maxt) {
    for (int i = 0; i < chunks(); i++) {
      long lo = chunkMin(i);
      long hi = chunkMax(i);
      if (hi < mint) {
        continue;
      }
      if (lo > maxt) {
        return false;
      }
      if (lo >= mint || hi <= maxt) {
        return true; // an end of the chunk is inside the range
      }
      XorIterator it = chunkIterator(i);
      if (it.seek(mint) && it.timestamp() <= maxt) {
        return true;
      }
    }
    return false;
  }

  /** An iterator over the samples in {@code [mint, maxt]}. */
  SampleIterator iterator(long mint, long maxt) {
    return new HeadSeriesIterator(this, mint, maxt);
  }
}
