package dev.infermon.tsdb.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An iterator over a strictly increasing list of series references. Starts before the first
 * reference: call {@link #next()} or {@link #seek(long)} first. Not thread-safe; a postings list is
 * read once.
 */
public interface Postings {
  /** Advances to the next reference; false at the end. */
  boolean next();

  /**
   * Advances to the first reference at or after {@code ref}; never moves backwards. False when
   * there is none.
   */
  boolean seek(long ref);

  /** The current reference. */
  long at();

  /** A list of nothing. */
  static Postings empty() {
    return new ArrayPostings(new int[0], 0);
  }

  /**
   * A list over {@code refs[0, size)}, which must be strictly increasing; the array is not copied
   * and must not change while the postings are read.
   */
  static Postings of(int[] refs, int size) {
    return new ArrayPostings(refs, size);
  }

  /** References present in every list. */
  static Postings intersect(List<Postings> lists) {
    if (lists.isEmpty()) {
      return empty();
    }
    if (lists.size() == 1) {
      return lists.get(0);
    }
    return new IntersectPostings(lists.toArray(new Postings[0]));
  }

  /** References present in any list, each once. */
  static Postings union(List<Postings> lists) {
    if (lists.isEmpty()) {
      return empty();
    }
    if (lists.size() == 1) {
      return lists.get(0);
    }
    return new UnionPostings(lists.toArray(new Postings[0]));
  }

  /** References of {@code full} that are not in {@code drop}. */
  static Postings without(Postings full, Postings drop) {
    return new WithoutPostings(full, drop);
  }

  /** Reads the remaining references into an array. */
  static long[] toArray(Postings p) {
    long[] out = new long[16];
    int n = 0;
    while (p.next()) {
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n++] = p.at();
    }
    return Arrays.copyOf(out, n);
  }

  /** Reads the remaining references into a list (for tests and small results). */
  static List<Long> toList(Postings p) {
    List<Long> out = new ArrayList<>();
    while (p.next()) {
      out.add(p.at());
    }
    return out;
  }
}
