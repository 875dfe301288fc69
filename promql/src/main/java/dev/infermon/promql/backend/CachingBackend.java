package dev.infermon.promql.backend;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.parser.Children;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.VectorSelector;
import dev.infermon.promql.value.Annotation;
import dev.infermon.promql.value.Annotations;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.storage.AppendWatermark;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * A step-aligned cache of range query results, as the query frontends of Thanos, Cortex and Mimir
 * keep: the value of a range query at a step {@code t} depends only on samples at or before {@code
 * t}, and once {@code t} is older than the storage's appendable window (the delegate's {@link
 * QueryBackend#immutableBefore()}, for the embedded TSDB Prometheus's rule that a sample more than
 * half a chunk range older than the newest one is rejected) no sample can be added there any more,
 * so the step's value is final. A repeated query (same text, step and grid phase) takes its final
 * steps from the cache and evaluates only the tail since the last final step: with the embedded
 * TSDB, the last hour and a bit of a 6 h dashboard instead of all six. Where the delegate also
 * tells what the storage committed since a mark ({@link QueryBackend#appendWatermark()}: the
 * embedded TSDB does), an entry keeps every step it was asked for, with the mark read before its
 * evaluation, and a repeated query evaluates only the steps from the lowest sample committed since
 * (scrapes commit at the newest time: a refreshed dashboard evaluates the last scrape or two; a
 * sender catching up 40 minutes late, 40 minutes). Over a delegate that cannot tell which steps are
 * final (a remote one: the bound is empty) nothing is cached and every query passes through.
 *
 * <p>What is cached: only {@link #rangeQuery(String, long, long, long)} (instant queries, such as
 * rules', and the forms under a caller's timeout pass through), only queries without {@code @} and
 * negative offsets (which could read samples after the step), and only steps before the bound minus
 * {@code marginMs}, read before the evaluation that produced them. The first answer for a key is
 * the delegate's own answer, unchanged. Later answers hold the same values for every step; their
 * annotations are the union of the cached part's and the tail's. Two known departures, both bounded
 * by {@code maxAgeMs} (after which an entry is evaluated again in full): data that retention
 * deletes stays in cached steps, and an appender held open across the window's move could still add
 * a sample to a cached step (a scrape's appender lives for one scrape, which the margin covers).
 *
 * <p>Threading: thread-safe. Entries are immutable and replaced whole; two callers that miss at
 * once both evaluate (no single flight here: {@link JoiningBackend} above it joins identical
 * queries in flight). At most {@code maxEntries} entries and {@code maxPoints} points (a full 6 h
 * dashboard holds about a million), least recently used evicted first.
 */
public final class CachingBackend extends ForwardingBackend {
  /** An entry read from a storage that does not tell what it commits later. */
  private static final long NO_MARK = Long.MIN_VALUE;

  private final long marginMs;
  private final LongSupplier clockMs;
  private final long maxAgeMs;
  private final int maxEntries;
  private final long maxPoints;
  private final Map<Key, Entry> entries; // guarded by itself
  private long points; // guarded by entries
  private long hits; // guarded by entries
  private long misses; // guarded by entries

  /**
   * @param delegate where queries run, and what tells which steps are final
   * @param marginMs how far before the delegate's bound a step must be to be cached: covers an
   *     appender opened before the window moved
   * @param clockMs wall clock for the entries' age
   * @param maxAgeMs after this an entry is evaluated again in full
   * @param maxEntries entries kept
   * @param maxPoints points kept over all entries (16 bytes each)
   * @throws IllegalArgumentException naming a negative margin or age or a bound below 1
   */
  public CachingBackend(
      QueryBackend delegate,
      long marginMs,
      LongSupplier clockMs,
      long maxAgeMs,
      int maxEntries,
      long maxPoints) {
    super(delegate);
    if (marginMs < 0 || maxAgeMs < 0 || maxEntries < 1 || maxPoints < 1 || clockMs == null) {
      throw new IllegalArgumentException(
          "bad cache settings: margin "
              + marginMs
              + " ms, age "
              + maxAgeMs
              + " ms, entries "
              + maxEntries
              + ", points "
              + maxPoints);
    }
    this.marginMs = marginMs;
    this.clockMs = clockMs;
    this.maxAgeMs = maxAgeMs;
    this.maxEntries = maxEntries;
    this.maxPoints = maxPoints;
    this.entries = new LinkedHashMap<>(16, 0.75f, true);
  }

  /**
   * Whether a query may be cached: nothing in it can read samples after the evaluation time. An
   * {@code @} modifier pins a selector to a time of its own (or to the query's start or end, which
   * differ between the cached part and the tail), and a negative offset reads after the step; a
   * positive offset reads before it, so {@code x - x offset 90s}, the dashboard's increase of every
   * bucket, is as final as {@code x}. A query that does not parse passes through to the delegate,
   * which names its error.
   */
  static boolean cacheable(String query) {
    Expr root;
    try {
      root = PromqlParser.parse(query);
    } catch (ParseException e) {
      return false;
    }
    Deque<Expr> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      Expr e = todo.pop();
      if (e instanceof VectorSelector) {
        VectorSelector v = (VectorSelector) e;
        if (v.at() != null || v.offsetMs() < 0) {
          return false;
        }
      } else if (e instanceof SubqueryExpr) {
        SubqueryExpr q = (SubqueryExpr) e;
        if (q.at() != null || q.offsetMs() < 0) {
          return false;
        }
      }
      Children.of(e).forEach(todo::push);
    }
    return true;
  }

  /** The delegate's answer, its final steps from the cache. */
  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    // read before evaluating: every step before it is final in what the evaluation sees
    OptionalLong bound = delegate.immutableBefore();
    if (!cacheable(query) || bound.isEmpty() || bound.getAsLong() == Long.MIN_VALUE) {
      return delegate.rangeQuery(query, startMs, endMs, stepMs);
    }
    Optional<AppendWatermark> watermark = delegate.appendWatermark();
    long mark = watermark.map(AppendWatermark::mark).orElse(NO_MARK);
    long horizon = bound.getAsLong() - marginMs;
    Key key = new Key(query, stepMs, Math.floorMod(startMs, stepMs));
    long now = clockMs.getAsLong();
    Entry e;
    synchronized (entries) {
      e = entries.get(key);
      if (e != null && (now - e.createdMs > maxAgeMs || startMs < e.fromMs || startMs > e.toMs)) {
        e = null;
      }
    }
    if (e != null) {
      e = stillValid(e, watermark, horizon, stepMs);
    }
    synchronized (entries) {
      if (e == null) {
        misses++;
      } else {
        hits++;
      }
    }
    // what this evaluation may keep: every step when the storage tells what it commits later
    long cut = mark != NO_MARK ? endMs : lastStepBefore(startMs, stepMs, horizon);
    if (e == null) {
      QueryResult full = delegate.rangeQuery(query, startMs, endMs, stepMs);
      if (full.value() instanceof Matrix && cut >= startMs) {
        put(key, Entry.of(startMs, cut, (Matrix) full.value(), full.annotations(), now, mark));
      }
      return full;
    }
    long tailStart = e.toMs + stepMs;
    QueryResult tail =
        tailStart <= endMs
            ? delegate.rangeQuery(query, tailStart, endMs, stepMs)
            : new QueryResult(new Matrix(List.of()), Annotations.NONE);
    if (!(tail.value() instanceof Matrix)) {
      return delegate.rangeQuery(query, startMs, endMs, stepMs);
    }
    Matrix merged = merge(e.series, startMs, Math.min(e.toMs, endMs), (Matrix) tail.value());
    Set<Annotation> notes = new LinkedHashSet<>(e.annotations.all());
    notes.addAll(tail.annotations().all());
    Annotations annotations = Annotations.of(notes);
    long upTo = Math.min(cut, endMs);
    if (endMs >= e.toMs && (upTo > e.toMs || startMs > e.fromMs || mark != e.mark)) {
      // keep what became final, drop what the window left behind
      put(key, Entry.of(startMs, Math.max(upTo, e.toMs), merged, annotations, e.createdMs, mark));
    }
    return new QueryResult(merged, annotations);
  }

  /**
   * {@code e} cut to the steps the storage cannot have changed since it was read: before the lowest
   * sample committed since its mark, or, where the storage cannot tell, before the horizon; null
   * when none are left.
   */
  private static Entry stillValid(
      Entry e, Optional<AppendWatermark> watermark, long horizon, long stepMs) {
    OptionalLong lowest =
        e.mark == NO_MARK || watermark.isEmpty()
            ? OptionalLong.empty()
            : watermark.get().lowestSince(e.mark);
    long before = lowest.isPresent() ? lowest.getAsLong() : horizon;
    if (before > e.toMs) {
      return e;
    }
    long to = lastStepBefore(e.fromMs, stepMs, before);
    if (to < e.fromMs) {
      return null;
    }
    return Entry.of(e.fromMs, to, new Matrix(e.series), e.annotations, e.createdMs, e.mark);
  }

  /** Hits and misses so far, for tests and the benchmark's notes. */
  long[] stats() {
    synchronized (entries) {
      return new long[] {hits, misses};
    }
  }

  private void put(Key key, Entry e) {
    synchronized (entries) {
      Entry old = entries.put(key, e);
      points += e.points() - (old == null ? 0 : old.points());
      var it = entries.entrySet().iterator();
      while (it.hasNext() && (entries.size() > maxEntries || points > maxPoints)) {
        Entry lru = it.next().getValue();
        points -= lru.points();
        it.remove();
      }
    }
  }

  /**
   * The last step {@code start + k*step} before {@code horizon}; below start when there is none.
   */
  static long lastStepBefore(long startMs, long stepMs, long horizon) {
    if (horizon <= startMs) {
      return startMs - stepMs;
    }
    return startMs + (horizon - 1 - startMs) / stepMs * stepMs;
  }

  /** The cached points in {@code [from, to]} followed by the tail's, series sorted by labels. */
  private static Matrix merge(List<TimeSeries> cached, long from, long to, Matrix tail) {
    if (tail.series().isEmpty()) {
      // nothing evaluated (nothing committed since): the cached series as they are, in their order
      List<TimeSeries> out = new ArrayList<>(cached.size());
      for (TimeSeries s : cached) {
        TimeSeries cut = slice(s, from, to);
        if (cut != null) {
          out.add(cut);
        }
      }
      return new Matrix(out);
    }
    Map<Labels, TimeSeries[]> parts = new TreeMap<>();
    for (TimeSeries s : cached) {
      TimeSeries cut = slice(s, from, to);
      if (cut != null) {
        parts.computeIfAbsent(s.labels(), k -> new TimeSeries[2])[0] = cut;
      }
    }
    for (TimeSeries s : tail.series()) {
      parts.computeIfAbsent(s.labels(), k -> new TimeSeries[2])[1] = s;
    }
    List<TimeSeries> out = new ArrayList<>(parts.size());
    for (Map.Entry<Labels, TimeSeries[]> p : parts.entrySet()) {
      TimeSeries a = p.getValue()[0];
      TimeSeries b = p.getValue()[1];
      if (a == null || b == null) {
        out.add(a == null ? b : a);
        continue;
      }
      int n = a.size() + b.size();
      long[] t = new long[n];
      double[] v = new double[n];
      for (int i = 0; i < a.size(); i++) {
        t[i] = a.timestampAt(i);
        v[i] = a.valueAt(i);
      }
      for (int i = 0; i < b.size(); i++) {
        t[a.size() + i] = b.timestampAt(i);
        v[a.size() + i] = b.valueAt(i);
      }
      out.add(TimeSeries.wrap(p.getKey(), t, v, n));
    }
    return new Matrix(out);
  }

  /** The points of {@code s} in {@code [from, to]}, or null when there are none. */
  private static TimeSeries slice(TimeSeries s, long from, long to) {
    int lo = 0;
    while (lo < s.size() && s.timestampAt(lo) < from) {
      lo++;
    }
    int hi = lo;
    while (hi < s.size() && s.timestampAt(hi) <= to) {
      hi++;
    }
    if (hi == lo) {
      return null;
    }
    if (lo == 0 && hi == s.size()) {
      return s;
    }
    long[] t = new long[hi - lo];
    double[] v = new double[hi - lo];
    for (int i = lo; i < hi; i++) {
      t[i - lo] = s.timestampAt(i);
      v[i - lo] = s.valueAt(i);
    }
    return TimeSeries.wrap(s.labels(), t, v, t.length);
  }

  private record Key(String query, long stepMs, long phaseMs) {}

  /**
   * The final steps {@code [fromMs, toMs]} of one query: its series cut to that range, and the
   * annotations of the evaluations they came from. Immutable.
   */
  private record Entry(
      long fromMs,
      long toMs,
      List<TimeSeries> series,
      Annotations annotations,
      long createdMs,
      long mark,
      long points) {
    static Entry of(long from, long to, Matrix m, Annotations a, long createdMs, long mark) {
      List<TimeSeries> kept = new ArrayList<>(m.series().size());
      long n = 0;
      for (TimeSeries s : m.series()) {
        TimeSeries cut = slice(s, from, to);
        if (cut != null) {
          kept.add(cut);
          n += cut.size();
        }
      }
      return new Entry(from, to, List.copyOf(kept), a, createdMs, mark, n);
    }
  }
}
