package dev.infermon.tsdb.head;

import dev.infermon.storage.SampleIterator;
import dev.infermon.tsdb.chunkenc.XorChunk;
import dev.infermon.tsdb.chunkenc.XorIterator;

/**
 * A series' chunks as they were at one moment: the completed chunks (immutable, back to back in one
 * array, {@code doneEnds[i]} the end of chunk i) and the open chunk's live array with the length
 * and sample count it had. Safe to read without a lock (see {@link XorChunk}'s threading note).
 * Immutable.
 */
record SeriesSnapshot(
    byte[] done,
    int[] doneEnds,
    long[] doneRanges,
    byte[] open,
    int openLength,
    int openCount,
    long openMin,
    long openMax) {

  int completed() {
    return doneEnds.length;
  }

  int chunks() {
    return doneEnds.length + (open == null ? 0 : 1);
  }

  long chunkMin(int i) {
    return i < doneEnds.length ? doneRanges[2 * i] : openMin;
  }

  long chunkMax(int i) {
    return i < doneEnds.length ? doneRanges[2 * i + 1] : openMax;
  }

  int chunkStart(int i) {
    return i == 0 ? 0 : doneEnds[i - 1];
  }

  XorIterator chunkIterator(int i) {
    if (i < doneEnds.length) {
      int start = chunkStart(i);
      return XorIterator.over(done, start, doneEnds[i] - start);
    }
    return XorIterator.over(open, 0, openLength, openCount);
  }

  /** Points {@code it} at chunk {@code i}, as {@link #chunkIterator} would a new iterator. */
  void resetIterator(XorIterator it, int i) {
    if (i < doneEnds.length) {
      int start = chunkStart(i);
      it.reset(done, start, doneEnds[i] - start);
    } else {
      it.reset(open, 0, openLength, openCount);
    }
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
