package dev.infermon.storage;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/** A k-way merge of series sets sorted by labels. Not thread-safe. */
final class MergeSeriesSet implements SeriesSet {
  private final List<SeriesSet> sets;
  private final PriorityQueue<Integer> heap;
  private final List<Integer> current = new ArrayList<>();
  private boolean started;
  private Series at;

  MergeSeriesSet(List<SeriesSet> sets) {
    this.sets = List.copyOf(sets);
    // Ties on labels break by position, so the first querier's series comes first.
    this.heap =
        new PriorityQueue<>(
            Math.max(1, sets.size()),
            (a, b) -> {
              int c = this.sets.get(a).at().labels().compareTo(this.sets.get(b).at().labels());
              return c != 0 ? c : Integer.compare(a, b);
            });
  }

  @Override
  public boolean next() {
    if (!started) {
      started = true;
      for (int i = 0; i < sets.size(); i++) {
        if (sets.get(i).next()) {
          heap.add(i);
        }
      }
    } else {
      for (int i : current) {
        if (sets.get(i).next()) {
          heap.add(i);
        }
      }
    }
    current.clear();
    if (heap.isEmpty()) {
      at = null;
      return false;
    }
    int first = heap.poll();
    current.add(first);
    Labels labels = sets.get(first).at().labels();
    while (!heap.isEmpty() && sets.get(heap.peek()).at().labels().equals(labels)) {
      current.add(heap.poll());
    }
    if (current.size() == 1) {
      at = sets.get(first).at();
    } else {
      List<Series> parts = new ArrayList<>(current.size());
      for (int i : current) {
        parts.add(sets.get(i).at());
      }
      at = new ChainedSeries(labels, parts);
    }
    return true;
  }

  @Override
  public Series at() {
    if (at == null) {
      throw new IllegalStateException("no current series: call next() first");
    }
    return at;
  }

  @Override
  public List<String> warnings() {
    List<String> all = new ArrayList<>();
    for (SeriesSet s : sets) {
      all.addAll(s.warnings());
    }
    return all;
  }

  /** One series assembled from parts with equal labels, in priority order. */
  private record ChainedSeries(Labels labels, List<Series> parts) implements Series {
    @Override
    public SampleIterator iterator() {
      SampleIterator[] its = new SampleIterator[parts.size()];
      for (int i = 0; i < its.length; i++) {
        its[i] = parts.get(i).iterator();
      }
      return new ChainSampleIterator(its);
    }
  }
}
