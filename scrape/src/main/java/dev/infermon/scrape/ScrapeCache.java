package dev.infermon.scrape;

import dev.infermon.model.labels.Labels;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Per-target memory between scrapes, as Prometheus's {@code scrapeCache}: series bytes to (labels
 * after honor_labels and metric relabeling, storage reference), series bytes that relabeling
 * dropped, and the label sets of the previous and the current scrape, whose difference gets
 * staleness markers.
 *
 * <p>Lookups go by the parser's 64-bit series hash and a byte comparison against the parser's
 * buffer ({@link SeriesBytesMap}), so a hit allocates and copies nothing.
 *
 * <p>Threading: used by one scrape loop at a time (the loop's scrapes never overlap).
 */
final class ScrapeCache {
  static final class Entry {
    final Labels labels;
    long ref;
    long lastIter;

    Entry(Labels labels, long ref, long iter) {
      this.labels = labels;
      this.ref = ref;
      this.lastIter = iter;
    }
  }

  private final SeriesBytesMap<Entry> series = new SeriesBytesMap<>();
  private final SeriesBytesMap<Entry> dropped = new SeriesBytesMap<>(); // labels null; lastIter
  private final SeriesKey probe = new SeriesKey();
  private Set<Labels> seriesCur = new HashSet<>();
  private Set<Labels> seriesPrev = new HashSet<>();
  private long iter;
  private int successfulCount;

  /** Points the lookup probe at the parser's current series bytes. */
  SeriesKey probe(byte[] b, int off, int len, long hash) {
    return probe.point(b, off, len, hash);
  }

  /** Starts a scrape: the current set is rebuilt from scratch. */
  void iterStart() {
    seriesCur.clear();
  }

  Entry get(SeriesKey key) {
    Entry e = series.get(key.bytes, key.offset, key.length, key.hash64);
    if (e != null) {
      e.lastIter = iter;
    }
    return e;
  }

  void add(SeriesKey key, Labels labels, long ref) {
    series.put(key.bytes, key.offset, key.length, key.hash64, new Entry(labels, ref, iter));
  }

  boolean isDropped(SeriesKey key) {
    Entry e = dropped.get(key.bytes, key.offset, key.length, key.hash64);
    if (e == null) {
      return false;
    }
    e.lastIter = iter;
    return true;
  }

  void addDropped(SeriesKey key) {
    dropped.put(key.bytes, key.offset, key.length, key.hash64, new Entry(null, 0, iter));
  }

  /** Records that a series without an explicit timestamp was in this scrape. */
  void trackStaleness(Labels labels) {
    seriesCur.add(labels);
  }

  /** Calls {@code f} with every series of the previous scrape that this scrape lacks. */
  void forEachStale(Consumer<Labels> f) {
    for (Labels l : seriesPrev) {
      if (!seriesCur.contains(l)) {
        f.accept(l);
      }
    }
  }

  /** Every series of the last completed scrape (for the markers of a stopped loop). */
  Set<Labels> previous() {
    return seriesPrev;
  }

  /**
   * Ends a scrape that was not rolled back. A non-empty scrape drops cache entries it did not see;
   * failed scrapes (empty) flush only when the cache more than doubled, as Prometheus does.
   */
  void iterDone(boolean flush) {
    int count = series.size() + dropped.size();
    if (flush) {
      successfulCount = count;
    } else if (count > successfulCount * 2 + 1000) {
      flush = true;
    }
    if (flush) {
      long now = iter;
      series.removeIf(e -> e.lastIter != now);
      dropped.removeIf(e -> e.lastIter != now);
    }
    Set<Labels> t = seriesPrev;
    seriesPrev = seriesCur;
    seriesCur = t;
    seriesCur.clear();
    iter++;
  }

  int size() {
    return series.size();
  }
}
