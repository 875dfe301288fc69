package dev.infermon.scrape;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Per-target memory between scrapes, as Prometheus's {@code scrapeCache}: series bytes to (labels
 * after honor_labels and metric relabeling, storage reference), series bytes that relabeling
 * dropped, and which series were in the previous and in the current scrape, whose difference gets
 * staleness markers.
 *
 * <p>Lookups go by the parser's 64-bit series hash and a byte comparison against the parser's
 * buffer ({@link SeriesBytesMap}), so a hit allocates and copies nothing. Where Prometheus keeps
 * the previous and current scrape's series in two maps, each entry here carries the numbers of the
 * scrape attempts that last saw it: no set to fill per sample, and a series that two spellings of
 * its bytes map to is simply two entries (a staleness marker for one, while the other is present,
 * lands on a sample of the same timestamp and is rejected as a duplicate, so nothing is marked).
 *
 * <p>Threading: used by one scrape loop at a time (the loop's scrapes never overlap).
 */
final class ScrapeCache {
  static final class Entry {
    final Labels labels;
    long ref;
    // Scrape and attempt numbers as ints (40 bytes per entry rather than 48): they wrap after 2^32
    // scrapes, 680 years at a 5 s interval, and are only ever compared for equality.
    int lastIter;
    int seen = -1; // the scrape attempt that last tracked this series for staleness
    int seenBefore = -1; // the attempt that tracked it before that one

    Entry(Labels labels, long ref, int iter) {
      this.labels = labels;
      this.ref = ref;
      this.lastIter = iter;
    }
  }

  private final SeriesBytesMap<Entry> series = new SeriesBytesMap<>();
  private final SeriesBytesMap<Entry> dropped = new SeriesBytesMap<>(); // labels null; lastIter
  private final SeriesKey probe = new SeriesKey();
  private int iter;
  // Every append (a failed page's and the empty one that records the failure) is an attempt;
  // `completed` is the attempt that ended the last scrape. Between two completed attempts at most
  // one other attempt tracks series (the page that failed), so `seenBefore` keeps what it hid.
  private int attempt;
  private int completed = -2;
  private int successfulCount;
  private int seenThisIter; // distinct entries of `series` looked up or added in this scrape
  private int droppedSeenThisIter; // the same for `dropped`

  /** Points the lookup probe at the parser's current series bytes. */
  SeriesKey probe(byte[] b, int off, int len, long hash) {
    return probe.point(b, off, len, hash);
  }

  /**
   * Forgets the buffer the probe last pointed into (the page, which is not the cache's to keep).
   */
  void releaseProbe() {
    probe.point(null, 0, 0, 0);
  }

  /** Whether the probe still points into a page (for tests). */
  boolean holdsPage() {
    return probe.bytes != null;
  }

  /** Starts an attempt at a scrape: no series is in the current scrape yet. */
  void iterStart() {
    attempt++;
  }

  Entry get(SeriesKey key) {
    Entry e = series.get(key.bytes, key.offset, key.length, key.hash64);
    if (e != null && e.lastIter != iter) {
      e.lastIter = iter;
      seenThisIter++;
    }
    return e;
  }

  /** Caches a new series and returns its entry. */
  Entry add(SeriesKey key, Labels labels, long ref) {
    Entry e = new Entry(labels, ref, iter);
    int before = series.size();
    series.put(key.bytes, key.offset, key.length, key.hash64, e);
    if (series.size() > before) {
      seenThisIter++;
    }
    return e;
  }

  boolean isDropped(SeriesKey key) {
    Entry e = dropped.get(key.bytes, key.offset, key.length, key.hash64);
    if (e == null) {
      return false;
    }
    if (e.lastIter != iter) {
      e.lastIter = iter;
      droppedSeenThisIter++;
    }
    return true;
  }

  void addDropped(SeriesKey key) {
    int before = dropped.size();
    dropped.put(key.bytes, key.offset, key.length, key.hash64, new Entry(null, 0, iter));
    if (dropped.size() > before) {
      droppedSeenThisIter++;
    }
  }

  /** Records that a series without an explicit timestamp was in this scrape. */
  void trackStaleness(Entry e) {
    if (e.seen != attempt) {
      e.seenBefore = e.seen;
      e.seen = attempt;
    }
  }

  private boolean inPrevious(Entry e) {
    return e.seen == completed || e.seenBefore == completed;
  }

  /** Calls {@code f} with every series of the previous scrape that this scrape lacks. */
  void forEachStale(Consumer<Labels> f) {
    series.forEachValue(
        e -> {
          if (e.seen != attempt && inPrevious(e)) {
            f.accept(e.labels);
          }
        });
  }

  /** Every series of the last completed scrape (for the markers of a stopped loop). */
  List<Labels> previous() {
    List<Labels> out = new ArrayList<>();
    series.forEachValue(
        e -> {
          if (e.seen == completed) {
            out.add(e.labels);
          }
        });
    return out;
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
      // Every entry seen in this scrape (the steady state): nothing to drop, no table pass.
      int now = iter;
      if (seenThisIter != series.size()) {
        series.removeIf(e -> e.lastIter != now);
      }
      if (droppedSeenThisIter != dropped.size()) {
        dropped.removeIf(e -> e.lastIter != now);
      }
    }
    completed = attempt;
    iter++;
    seenThisIter = 0;
    droppedSeenThisIter = 0;
  }

  int size() {
    return series.size();
  }
}
