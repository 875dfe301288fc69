package dev.infermon.storage;

import dev.infermon.model.labels.Matcher;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A querier over several queriers (the head and the on-disk blocks, say) that reads as one: series
 * with the same labels are joined, and their samples interleaved by time with duplicates removed.
 * When two queriers hold a sample at the same timestamp, the one listed first wins, so list the
 * most authoritative source first.
 *
 * <p>Children that cannot have samples in the selected range ({@link Querier#mayHaveSamplesIn}) are
 * not asked. When one child is left there is nothing to merge: its series set is returned as it is,
 * in the order the caller asked for (an instant query near now reads only the head, and need not
 * sort it). Otherwise the output is sorted by labels (merging needs sorted inputs, so the children
 * are asked for sorted series whatever the caller asks). Lazy: a child's series set is advanced
 * only as far as the caller reads. Not thread-safe, like every querier; closing it closes every
 * child.
 */
public final class MergeQuerier implements Querier {
  private final List<Querier> queriers;

  private MergeQuerier(List<Querier> queriers) {
    this.queriers = queriers;
  }

  /**
   * A querier that merges these, in priority order. One querier is returned unchanged.
   *
   * @throws IllegalArgumentException when the list is empty or holds null
   */
  public static Querier of(List<? extends Querier> queriers) {
    if (queriers.isEmpty()) {
      throw new IllegalArgumentException("merge of no queriers");
    }
    for (Querier q : queriers) {
      if (q == null) {
        throw new IllegalArgumentException("null querier in " + queriers);
      }
    }
    if (queriers.size() == 1) {
      return queriers.get(0);
    }
    return new MergeQuerier(List.copyOf(queriers));
  }

  /** Merges series sets that are each sorted by labels; equal label sets become one series. */
  public static SeriesSet mergeSorted(List<SeriesSet> sets) {
    if (sets.size() == 1) {
      return sets.get(0);
    }
    return new MergeSeriesSet(sets);
  }

  @Override
  public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
    Querier only = null;
    int live = 0;
    for (Querier q : queriers) {
      if (q.mayHaveSamplesIn(mint, maxt)) {
        only = q;
        live++;
      }
    }
    if (live <= 1) {
      // With no live child the first one still answers, so the matchers are validated as always.
      return (only != null ? only : queriers.get(0)).select(sorted, mint, maxt, matchers);
    }
    List<SeriesSet> sets = new ArrayList<>(live);
    for (Querier q : queriers) {
      if (q.mayHaveSamplesIn(mint, maxt)) {
        sets.add(q.select(true, mint, maxt, matchers));
      }
    }
    return new MergeSeriesSet(sets);
  }

  @Override
  public boolean mayHaveSamplesIn(long mint, long maxt) {
    for (Querier q : queriers) {
      if (q.mayHaveSamplesIn(mint, maxt)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public List<String> labelValues(String name, long mint, long maxt, List<Matcher> matchers) {
    TreeSet<String> all = new TreeSet<>();
    for (Querier q : queriers) {
      all.addAll(q.labelValues(name, mint, maxt, matchers));
    }
    return List.copyOf(all);
  }

  @Override
  public List<String> labelNames(long mint, long maxt, List<Matcher> matchers) {
    TreeSet<String> all = new TreeSet<>();
    for (Querier q : queriers) {
      all.addAll(q.labelNames(mint, maxt, matchers));
    }
    return List.copyOf(all);
  }

  /** Closes every child, even when one fails; the first failure is rethrown with the rest. */
  @Override
  public void close() {
    RuntimeException first = null;
    for (Querier q : queriers) {
      try {
        q.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
