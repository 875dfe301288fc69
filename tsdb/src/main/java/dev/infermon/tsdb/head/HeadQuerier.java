package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import dev.infermon.tsdb.index.MatcherPostings;
import dev.infermon.tsdb.index.Postings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Reads the head. Series are resolved from the index when {@link #select} is called; each series'
 * chunks are captured when the series set reaches it, so a long read sees every sample committed
 * before that point. Not thread-safe, like every querier.
 */
final class HeadQuerier implements Querier {
  private final Head head;
  private boolean closed;

  HeadQuerier(Head head) {
    this.head = head;
  }

  @Override
  public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
    checkOpen();
    if (matchers.isEmpty()) {
      throw new IllegalArgumentException("select needs at least one matcher");
    }
    boolean allMatchEmpty = true;
    for (Matcher m : matchers) {
      allMatchEmpty &= m.matchesEmpty();
    }
    if (allMatchEmpty) {
      throw new IllegalArgumentException(
          "a selector must contain a matcher that does not match the empty string: " + matchers);
    }
    List<MemSeries> found = resolve(matchers);
    if (sorted) {
      found.sort(Comparator.comparing(s -> s.labels));
    }
    return new HeadSeriesSet(found, head.chunkStore(), mint, maxt);
  }

  private List<MemSeries> resolve(List<Matcher> matchers) {
    Postings p = MatcherPostings.select(head.postings, matchers);
    List<MemSeries> out = new ArrayList<>();
    while (p.next()) {
      MemSeries s = head.seriesById(p.at());
      if (s != null) { // null: removed by a truncation since the postings were read
        out.add(s);
      }
    }
    return out;
  }

  @Override
  public List<String> labelValues(String name, long mint, long maxt, List<Matcher> matchers) {
    checkOpen();
    TreeSet<String> out = new TreeSet<>();
    if (matchers.isEmpty()) {
      // Per value, stop at the first series with data: cheap even for large heads.
      for (String v : head.postings.labelValues(name)) {
        if (anyHasData(head.postings.postings(name, v), mint, maxt)) {
          out.add(v);
        }
      }
    } else {
      for (MemSeries s : resolve(matchers)) {
        String v = s.labels.get(name);
        if (!v.isEmpty() && !out.contains(v) && hasData(s, mint, maxt)) {
          out.add(v);
        }
      }
    }
    return List.copyOf(out);
  }

  @Override
  public List<String> labelNames(long mint, long maxt, List<Matcher> matchers) {
    checkOpen();
    TreeSet<String> out = new TreeSet<>();
    if (matchers.isEmpty()) {
      for (String name : head.postings.labelNames()) {
        for (String v : head.postings.labelValues(name)) {
          if (anyHasData(head.postings.postings(name, v), mint, maxt)) {
            out.add(name);
            break;
          }
        }
      }
    } else {
      for (MemSeries s : resolve(matchers)) {
        if (hasData(s, mint, maxt)) {
          out.addAll(s.labels.names());
        }
      }
    }
    return List.copyOf(out);
  }

  private boolean anyHasData(Postings p, long mint, long maxt) {
    while (p.next()) {
      MemSeries s = head.seriesById(p.at());
      if (s != null && hasData(s, mint, maxt)) {
        return true;
      }
    }
    return false;
  }

  private boolean hasData(MemSeries s, long mint, long maxt) {
    SeriesSnapshot snap;
    synchronized (s) {
      snap = s.snapshot(head.chunkStore());
    }
    return snap.hasSampleIn(mint, maxt);
  }

  @Override
  public void close() {
    closed = true;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("querier is closed");
    }
  }

  /** Walks the resolved series, skipping those without samples in the range. */
  private static final class HeadSeriesSet implements SeriesSet {
    private final List<MemSeries> series;
    private final ChunkStore store;
    private final long mint;
    private final long maxt;
    private int i = -1;
    private Series at;

    HeadSeriesSet(List<MemSeries> series, ChunkStore store, long mint, long maxt) {
      this.series = series;
      this.store = store;
      this.mint = mint;
      this.maxt = maxt;
    }

    @Override
    public boolean next() {
      while (++i < series.size()) {
        MemSeries s = series.get(i);
        SeriesSnapshot snap;
        synchronized (s) {
          snap = s.snapshot(store);
        }
        if (snap.hasSampleIn(mint, maxt)) {
          at = new HeadSeries(s.labels, snap, mint, maxt);
          return true;
        }
      }
      at = null;
      return false;
    }

    @Override
    public Series at() {
      if (at == null) {
        throw new IllegalStateException("no current series: call next() first");
      }
      return at;
    }
  }

  private record HeadSeries(Labels labels, SeriesSnapshot snap, long mint, long maxt)
      implements Series {
    @Override
    public SampleIterator iterator() {
      return snap.iterator(mint, maxt);
    }
  }
}
