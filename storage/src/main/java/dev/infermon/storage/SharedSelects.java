package dev.infermon.storage;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The reads of a set of queries asked together (one dashboard load, whose panels select the same
 * series over the same range again and again) shared where the data cannot change: each series'
 * samples at or before {@code finalUpTo} are decoded once per distinct select (matchers, start,
 * {@code min(end, finalUpTo)}) and kept in memory for the others; samples after it are read from
 * the storage at every select, as without sharing.
 *
 * <p>Every select still goes to the storage: the series, their labels and their order are the
 * storage's own answer at that moment (a series created since an earlier select is there, and the
 * engine's sums see their inputs in the storage's order), so an answer differs from the storage's
 * only if a sample at or before {@code finalUpTo} was added or removed while the scope is open. The
 * caller chooses {@code finalUpTo} so that none can be (for the TSDB, before its appendable window
 * less the margin an appender opened earlier may still write in). Retention that deletes a block
 * while the scope is open is not seen by the scope's later selects.
 *
 * <p>Memory: at most the budget's samples (16 bytes each; {@code maxSamples}, or a {@link Budget}
 * other scopes draw on too) are kept; past that, series are read from the storage as without
 * sharing. When the caller says how many selects each matcher set will have ({@code uses}: the
 * selectors of the queries it will ask), a set's samples are kept only until its last expected
 * select has begun (that select still reads them), and a set not expected is not kept at all; a
 * count that is off costs sharing or memory until close, never a wrong answer. Everything is
 * dropped at {@link #close()}, after which selects pass straight through; iterators handed out
 * before stay valid.
 *
 * <p>Threading: thread-safe; each {@link #querier()} is one query's, not thread-safe, as every
 * querier. Two queries that read the same series at once may both decode it (one copy is kept).
 */
public final class SharedSelects implements Queryable, AutoCloseable {
  private final Queryable storage;
  private final long finalUpTo;
  private final Budget budget;
  private final boolean expected; // whether only the sets in uses are kept
  private final Map<List<Matcher>, Family> families = new ConcurrentHashMap<>();
  private final AtomicLong held; // the budget's: every scope drawing on it
  private final AtomicLong peak = new AtomicLong();
  private final LongAdder reused = new LongAdder();
  private volatile boolean closed;

  private SharedSelects(
      Queryable storage, long finalUpTo, Budget budget, Map<List<Matcher>, Integer> uses) {
    this.storage = storage;
    this.finalUpTo = finalUpTo;
    this.budget = budget;
    this.held = budget.held;
    this.expected = uses != null;
    if (uses != null) {
      uses.forEach((m, n) -> families.put(List.copyOf(m), new Family(n)));
    }
  }

  /**
   * Shares every select's final samples until {@link #close()}.
   *
   * @param storage what every select reads
   * @param finalUpTo the latest time whose samples cannot change while this is open
   * @param maxSamples samples kept at most
   * @throws IllegalArgumentException when {@code storage} is null or {@code maxSamples} negative
   */
  public static SharedSelects over(Queryable storage, long finalUpTo, long maxSamples) {
    return over(storage, finalUpTo, maxSamples, null);
  }

  /**
   * As {@link #over(Queryable, long, long)}, keeping a matcher set's samples only while more of its
   * selects are expected.
   *
   * @param uses how many selects each matcher set will have; null when unknown (all are kept)
   * @throws IllegalArgumentException when {@code storage} is null, {@code maxSamples} negative or a
   *     count below 1
   */
  public static SharedSelects over(
      Queryable storage, long finalUpTo, long maxSamples, Map<List<Matcher>, Integer> uses) {
    return over(storage, finalUpTo, Budget.of(maxSamples), uses);
  }

  /**
   * As {@link #over(Queryable, long, long, Map)}, keeping samples only while {@code budget}, which
   * other open scopes may draw on too, has room for them: concurrent dashboard loads together hold
   * at most the budget.
   *
   * @throws IllegalArgumentException when {@code storage} or {@code budget} is null or a count
   *     below 1
   */
  public static SharedSelects over(
      Queryable storage, long finalUpTo, Budget budget, Map<List<Matcher>, Integer> uses) {
    if (storage == null || budget == null) {
      throw new IllegalArgumentException(
          "shared selects need a storage and a sample budget, got " + storage + " and " + budget);
    }
    if (uses != null) {
      uses.forEach(
          (m, n) -> {
            if (n == null || n < 1) {
              throw new IllegalArgumentException("expected selects of " + m + ": " + n);
            }
          });
    }
    return new SharedSelects(storage, finalUpTo, budget, uses);
  }

  /**
   * Samples that scopes drawing on it keep between them, at most {@link #max()}. Thread-safe;
   * shared by the scopes a backend opens, so that memory stays bounded however many loads run at
   * once.
   */
  public static final class Budget {
    private final long max;
    private final AtomicLong held = new AtomicLong();

    private Budget(long max) {
      this.max = max;
    }

    /**
     * @throws IllegalArgumentException when {@code max} is negative
     */
    public static Budget of(long max) {
      if (max < 0) {
        throw new IllegalArgumentException("a sample budget of at least 0, got " + max);
      }
      return new Budget(max);
    }

    /** Samples kept at most, by every scope together. */
    public long max() {
      return max;
    }

    /** Samples the scopes drawing on this keep now. */
    public long held() {
      return held.get();
    }

    @Override
    public String toString() {
      return "Budget[" + held.get() + " of " + max + "]";
    }
  }

  /** The latest time whose samples are shared. */
  public long finalUpTo() {
    return finalUpTo;
  }

  /** Samples held now, by this and every other scope drawing on its budget. */
  public long heldSamples() {
    return held.get();
  }

  /** The most samples held at once so far. */
  public long peakSamples() {
    return peak.get();
  }

  /** Samples answered from memory instead of the storage so far. */
  public long reusedSamples() {
    return reused.sum();
  }

  @Override
  public Querier querier() {
    Querier q = storage.querier();
    return new Querier() {
      @Override
      public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
        SeriesSet set = q.select(sorted, mint, maxt, matchers);
        return share(set, mint, maxt, matchers);
      }

      @Override
      public boolean mayHaveSamplesIn(long mint, long maxt) {
        return q.mayHaveSamplesIn(mint, maxt);
      }

      @Override
      public List<String> labelValues(String name, long mint, long maxt, List<Matcher> matchers) {
        return q.labelValues(name, mint, maxt, matchers);
      }

      @Override
      public List<String> labelNames(long mint, long maxt, List<Matcher> matchers) {
        return q.labelNames(mint, maxt, matchers);
      }

      @Override
      public void close() {
        q.close();
      }
    };
  }

  /** The storage's answer {@code set}, reading the shared samples of its range. */
  private SeriesSet share(SeriesSet set, long mint, long maxt, List<Matcher> matchers) {
    long upTo = Math.min(maxt, finalUpTo);
    if (closed || mint > upTo) {
      return set;
    }
    Family f =
        expected
            ? families.get(matchers)
            : families.computeIfAbsent(List.copyOf(matchers), m -> new Family(0));
    if (f == null) {
      return set; // not expected again: nothing to keep it for
    }
    Map<Labels, Prefix> entry =
        f.ranges.computeIfAbsent(new Range(mint, upTo), r -> new ConcurrentHashMap<>());
    if (expected && f.left.decrementAndGet() <= 0) {
      // the last expected select: it reads what is kept, and nothing is kept after it
      families.remove(matchers, f);
      f.release();
    }
    return new SharedSet(set, f, entry, upTo, maxt > upTo);
  }

  /** Drops what is held; later selects read the storage only. Idempotent. */
  @Override
  public void close() {
    closed = true;
    for (Family f : families.values()) {
      f.release();
    }
    families.clear();
  }

  private record Range(long mint, long upTo) {}

  /** One matcher set's kept samples, by select range, and how many of its selects are to come. */
  private final class Family {
    final Map<Range, Map<Labels, Prefix>> ranges = new ConcurrentHashMap<>();
    final AtomicInteger left;
    private long samples; // guarded by this
    private boolean released; // guarded by this

    Family(int uses) {
      this.left = new AtomicInteger(uses);
    }

    /** Keeps {@code p} for {@code labels} unless released, kept already or over the budget. */
    synchronized void keep(Map<Labels, Prefix> entry, Labels labels, Prefix p) {
      if (released || closed || held.get() + p.n > budget.max) {
        return;
      }
      if (entry.putIfAbsent(labels, p) == null) {
        samples += p.n;
        peak.accumulateAndGet(held.addAndGet(p.n), Math::max);
      }
    }

    /** Keeps nothing more; what readers still hold is theirs. */
    synchronized void release() {
      if (!released) {
        released = true;
        held.addAndGet(-samples);
        samples = 0;
      }
    }
  }

  /** The storage's series set, each series' iterator starting with the shared samples. */
  private final class SharedSet implements SeriesSet {
    private final SeriesSet set;
    private final Family family;
    private final Map<Labels, Prefix> entry;
    private final long upTo;
    private final boolean later; // whether the select reaches past upTo

    SharedSet(SeriesSet set, Family family, Map<Labels, Prefix> entry, long upTo, boolean later) {
      this.set = set;
      this.family = family;
      this.entry = entry;
      this.upTo = upTo;
      this.later = later;
    }

    @Override
    public boolean next() {
      return set.next();
    }

    @Override
    public Series at() {
      Series s = set.at();
      return new Series() {
        @Override
        public Labels labels() {
          return s.labels();
        }

        @Override
        public SampleIterator iterator() {
          Prefix p = entry.get(s.labels());
          if (p != null) {
            reused.add(p.n);
            return new PrefixedIterator(p, later ? s : null, null, upTo);
          }
          SampleIterator it = s.iterator();
          Prefix.Read read = Prefix.read(it, upTo);
          family.keep(entry, s.labels(), read.prefix());
          // the series' own iterator goes on after upTo, from the sample it sits on
          return new PrefixedIterator(read.prefix(), null, read.more() ? it : null, upTo);
        }
      };
    }

    @Override
    public List<String> warnings() {
      return set.warnings();
    }
  }
}
