package dev.infermon.tsdb.head;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The pages of a {@link ChunkStore}: numbered from 0 up and never renumbered, with the newest
 * sample time of the chunks in each. Immutable: adding or dropping pages makes a new table, so a
 * reader that holds one keeps reading the pages it saw.
 *
 * @param <P> the page type (an array, a mapped segment)
 */
final class PageTable<P> {
  final int first; // number of pages[0]
  final Object[] pages;
  final long[] maxTimes; // newest sample time per page; the last entry raised in place

  private PageTable(int first, Object[] pages, long[] maxTimes) {
    this.first = first;
    this.pages = pages;
    this.maxTimes = maxTimes;
  }

  static <P> PageTable<P> empty() {
    return new PageTable<>(0, new Object[0], new long[0]);
  }

  /** The page numbered {@code n}. */
  @SuppressWarnings("unchecked")
  P page(int n) {
    int i = n - first;
    if (i < 0 || i >= pages.length) {
      throw new IllegalStateException(
          "head chunk page " + n + " is not in pages [" + first + ", " + next() + ")");
    }
    return (P) pages[i];
  }

  /** The number the next page gets. */
  int next() {
    return first + pages.length;
  }

  int size() {
    return pages.length;
  }

  /** This table plus {@code p} as page {@link #next()}. */
  PageTable<P> plus(P p) {
    Object[] ps = Arrays.copyOf(pages, pages.length + 1);
    ps[pages.length] = p;
    long[] ts = Arrays.copyOf(maxTimes, pages.length + 1);
    ts[pages.length] = Long.MIN_VALUE;
    return new PageTable<>(first, ps, ts);
  }

  /**
   * Raises the newest sample time of the last page. Changes this table in place: the times are the
   * writer's bookkeeping (read under the store's lock), not something readers look at.
   */
  void raiseLastMaxTime(long t) {
    int i = pages.length - 1;
    if (t > maxTimes[i]) {
      maxTimes[i] = t;
    }
  }

  /**
   * This table without its leading pages whose chunks all end before {@code mint}, never dropping
   * the last page; {@code dropped} receives each page dropped. Pages are dropped from the front
   * only (a later page may hold an older chunk, so the first page still in use keeps the ones after
   * it).
   */
  @SuppressWarnings("unchecked")
  PageTable<P> truncateBefore(long mint, Consumer<P> dropped) {
    int n = 0;
    while (n < pages.length - 1 && maxTimes[n] < mint) {
      n++;
    }
    if (n == 0) {
      return this;
    }
    for (int i = 0; i < n; i++) {
      dropped.accept((P) pages[i]);
    }
    return new PageTable<>(
        first + n,
        Arrays.copyOfRange(pages, n, pages.length),
        Arrays.copyOfRange(maxTimes, n, pages.length));
  }
}
