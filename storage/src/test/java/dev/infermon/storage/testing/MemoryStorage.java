package dev.infermon.storage.testing;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.storage.Appender;
import dev.infermon.storage.DuplicateSampleException;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.Storage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A simple, correct in-memory {@link Storage}: series in a sorted map, samples in growing arrays.
 * It is the reference the engine and the other modules test against, so it favours obviously right
 * over fast.
 *
 * <p>Semantics follow Prometheus's head for in-order data: a sample older than the series' newest
 * sample is {@link OutOfOrderSampleException}; a different value at the newest timestamp is {@link
 * DuplicateSampleException}; the same value (same bits) at the newest timestamp is ignored. Appends
 * become visible atomically on commit.
 *
 * <p>Threading: all methods are thread-safe (one read/write lock). A querier copies the samples it
 * returns at {@code select} time, so its series stay valid and unchanged after later commits.
 */
public final class MemoryStorage implements Storage {
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final TreeMap<Labels, MemSeries> series = new TreeMap<>();
  private final Map<String, LinkedHashSet<Metadata>> metadata = new TreeMap<>();
  private volatile boolean closed;

  @Override
  public Appender appender() {
    checkOpen();
    return new MemAppender();
  }

  @Override
  public Querier querier() {
    checkOpen();
    return new MemQuerier();
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    lock.readLock().lock();
    try {
      Map<String, List<Metadata>> out = new LinkedHashMap<>();
      metadata.forEach(
          (name, set) -> {
            if (metric == null || metric.equals(name)) {
              out.put(name, List.copyOf(set));
            }
          });
      return out;
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public long startTime() {
    lock.readLock().lock();
    try {
      long min = Long.MAX_VALUE;
      for (MemSeries s : series.values()) {
        if (s.size > 0) {
          min = Math.min(min, s.t[0]);
        }
      }
      return min;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Number of series held (for tests). */
  public int seriesCount() {
    lock.readLock().lock();
    try {
      return series.size();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public void close() {
    closed = true;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("storage is closed");
    }
  }

  /** One series' samples, sorted by time. Guarded by the storage lock. */
  private static final class MemSeries {
    long[] t = new long[16];
    double[] v = new double[16];
    int size;

    void add(long ts, double value) {
      if (size == t.length) {
        t = Arrays.copyOf(t, size * 2);
        v = Arrays.copyOf(v, size * 2);
      }
      t[size] = ts;
      v[size] = value;
      size++;
    }

    long newest() {
      return size == 0 ? Long.MIN_VALUE : t[size - 1];
    }
  }

  private final class MemAppender implements Appender {
    // Pending samples per series in append order; checked against committed and pending data.
    private final Map<Labels, long[]> pendingNewest = new LinkedHashMap<>();
    private final Map<Labels, Double> pendingNewestValue = new LinkedHashMap<>();
    private final List<Labels> pendingLabels = new ArrayList<>();
    private final List<long[]> pendingTimes = new ArrayList<>();
    private final List<double[]> pendingValues = new ArrayList<>();
    private final Map<Labels, Metadata> pendingMetadata = new LinkedHashMap<>();
    private boolean done;

    @Override
    public long append(long ref, Labels labels, long timestampMs, double value) {
      checkUsable();
      if (labels == null || labels.isEmpty()) {
        throw new IllegalArgumentException("series labels must not be empty");
      }
      long newest;
      double newestValue;
      long[] pending = pendingNewest.get(labels);
      if (pending != null) {
        newest = pending[0];
        newestValue = pendingNewestValue.get(labels);
      } else {
        lock.readLock().lock();
        try {
          MemSeries s = series.get(labels);
          newest = s == null ? Long.MIN_VALUE : s.newest();
          newestValue = s == null || s.size == 0 ? 0 : s.v[s.size - 1];
        } finally {
          lock.readLock().unlock();
        }
      }
      if (timestampMs < newest) {
        throw new OutOfOrderSampleException(labels + " at " + timestampMs);
      }
      if (timestampMs == newest) {
        if (Double.doubleToRawLongBits(newestValue) == Double.doubleToRawLongBits(value)) {
          return labels.hash64();
        }
        throw new DuplicateSampleException(labels + " at " + timestampMs);
      }
      pendingNewest.put(labels, new long[] {timestampMs});
      pendingNewestValue.put(labels, value);
      pendingLabels.add(labels);
      pendingTimes.add(new long[] {timestampMs});
      pendingValues.add(new double[] {value});
      return labels.hash64();
    }

    @Override
    public void updateMetadata(Labels labels, Metadata md) {
      checkUsable();
      pendingMetadata.put(labels, md);
    }

    @Override
    public void commit() {
      checkUsable();
      done = true;
      lock.writeLock().lock();
      try {
        for (int i = 0; i < pendingLabels.size(); i++) {
          Labels l = pendingLabels.get(i);
          MemSeries s = series.computeIfAbsent(l, k -> new MemSeries());
          long t = pendingTimes.get(i)[0];
          if (t > s.newest()) {
            s.add(t, pendingValues.get(i)[0]);
          }
        }
        pendingMetadata.forEach(
            (l, md) ->
                metadata.computeIfAbsent(l.metricName(), k -> new LinkedHashSet<>()).add(md));
      } finally {
        lock.writeLock().unlock();
      }
    }

    @Override
    public void rollback() {
      checkUsable();
      done = true;
    }

    private void checkUsable() {
      if (done) {
        throw new IllegalStateException("appender already committed or rolled back");
      }
      checkOpen();
    }
  }

  private final class MemQuerier implements Querier {
    @Override
    public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
      if (matchers == null || matchers.isEmpty()) {
        throw new IllegalArgumentException("select needs at least one matcher");
      }
      boolean allMatchEmpty = true;
      for (Matcher m : matchers) {
        allMatchEmpty &= m.matchesEmpty();
      }
      if (allMatchEmpty) {
        throw new IllegalArgumentException(
            "select needs a matcher that does not match the empty string: " + matchers);
      }
      List<Series> out = new ArrayList<>();
      lock.readLock().lock();
      try {
        for (Map.Entry<Labels, MemSeries> e : series.entrySet()) {
          if (!matchesAll(e.getKey(), matchers)) {
            continue;
          }
          MemSeries s = e.getValue();
          int from = lowerBound(s.t, s.size, mint);
          int to = lowerBound(s.t, s.size, maxt == Long.MAX_VALUE ? maxt : maxt + 1);
          if (maxt == Long.MAX_VALUE) {
            to = s.size;
          }
          if (from >= to) {
            continue;
          }
          out.add(
              new ArraySeries(
                  e.getKey(),
                  Arrays.copyOfRange(s.t, from, to),
                  Arrays.copyOfRange(s.v, from, to)));
        }
      } finally {
        lock.readLock().unlock();
      }
      return new ListSeriesSet(out);
    }

    @Override
    public List<String> labelValues(String name, long mint, long maxt, List<Matcher> matchers) {
      Set<String> values = new TreeSet<>();
      forEachSeriesInRange(
          mint,
          maxt,
          matchers,
          l -> {
            String v = l.get(name);
            if (!v.isEmpty()) {
              values.add(v);
            }
          });
      return List.copyOf(values);
    }

    @Override
    public List<String> labelNames(long mint, long maxt, List<Matcher> matchers) {
      Set<String> names = new TreeSet<>();
      forEachSeriesInRange(mint, maxt, matchers, l -> names.addAll(l.names()));
      return List.copyOf(names);
    }

    private void forEachSeriesInRange(
        long mint, long maxt, List<Matcher> matchers, java.util.function.Consumer<Labels> fn) {
      lock.readLock().lock();
      try {
        for (Map.Entry<Labels, MemSeries> e : series.entrySet()) {
          if (matchers != null && !matchesAll(e.getKey(), matchers)) {
            continue;
          }
          MemSeries s = e.getValue();
          int from = lowerBound(s.t, s.size, mint);
          if (from < s.size && s.t[from] <= maxt) {
            fn.accept(e.getKey());
          }
        }
      } finally {
        lock.readLock().unlock();
      }
    }

    @Override
    public void close() {}
  }

  private static boolean matchesAll(Labels labels, List<Matcher> matchers) {
    for (Matcher m : matchers) {
      if (!m.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /** First index whose time is at or after {@code t}. */
  private static int lowerBound(long[] ts, int size, long t) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ts[mid] < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static final class ListSeriesSet implements SeriesSet {
    private final List<Series> list;
    private int i = -1;

    ListSeriesSet(List<Series> list) {
      this.list = list;
    }

    @Override
    public boolean next() {
      return ++i < list.size();
    }

    @Override
    public Series at() {
      return list.get(i);
    }
  }

  private static final class ArraySeries implements Series {
    private final Labels labels;
    private final long[] t;
    private final double[] v;

    ArraySeries(Labels labels, long[] t, double[] v) {
      this.labels = labels;
      this.t = t;
      this.v = v;
    }

    @Override
    public Labels labels() {
      return labels;
    }

    @Override
    public SampleIterator iterator() {
      return new SampleIterator() {
        private int i = -1;

        @Override
        public boolean next() {
          if (i < t.length) {
            i++;
          }
          return i < t.length;
        }

        @Override
        public boolean seek(long ts) {
          if (i < 0) {
            i = 0;
          }
          while (i < t.length && t[i] < ts) {
            i++;
          }
          return i < t.length;
        }

        @Override
        public long timestamp() {
          return t[i];
        }

        @Override
        public double value() {
          return v[i];
        }
      };
    }
  }
}
