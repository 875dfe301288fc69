package dev.infermon.tsdb.index;

/** Postings over a slice of an int array; seeks gallop, then binary-search. */
final class ArrayPostings implements Postings {
  private final int[] refs;
  private final int size;
  private int i = -1;

  ArrayPostings(int[] refs, int size) {
    this.refs = refs;
    this.size = size;
  }

  @Override
  public boolean next() {
    if (i < size) {
      i++;
    }
    return i < size;
  }

  @Override
  public boolean seek(long ref) {
    if (i < 0) {
      i = 0;
    }
    if (i >= size || refs[i] >= ref) {
      return i < size;
    }
    // Gallop: intersections seek short distances far more often than long ones.
    int lo = i;
    int step = 1;
    int hi = i + 1;
    while (hi < size && refs[hi] < ref) {
      lo = hi;
      step <<= 1;
      hi = i + step;
    }
    hi = Math.min(hi, size);
    // First index in (lo, hi] with refs[index] >= ref; hi == size means none in range.
    while (lo + 1 < hi) {
      int mid = (lo + hi) >>> 1;
      if (refs[mid] < ref) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    i = hi;
    return i < size;
  }

  @Override
  public long at() {
    return refs[i];
  }
}
