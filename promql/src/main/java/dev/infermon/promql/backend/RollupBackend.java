package dev.infermon.promql.backend;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.Annotation;
import dev.infermon.promql.value.Annotations;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.storage.AppendWatermark;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.SeriesSet;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Answers a range query from its stored answers ({@link Rollups}) where they cover it: a query
 * whose text is kept, whose step is a multiple of the grid's interval and whose start is on the
 * grid reads the stored series and markers over {@code [start, end]} (exact timestamps, no
 * lookback) and evaluates raw only the steps without a marker (the tail after the last step
 * written, gaps, steps taken back), each run of them as one range query at the same step; the parts
 * are merged per series. Every other query passes through. The answer is the engine's, step for
 * step: the value of a query at a step depends on that step alone (texts that depend on the step
 * itself are not kept), the series come sorted by labels as the engine sorts them, and the
 * annotations are those of the raw parts (a step whose evaluation had any is not stored, so it is
 * always a raw part).
 *
 * <p>Threading: thread-safe.
 */
public final class RollupBackend extends ForwardingBackend {
  private final Rollups rollups;
  private final AtomicLong stepsRead = new AtomicLong();
  private final AtomicLong stepsEvaluated = new AtomicLong();

  /**
   * @param delegate evaluates raw
   * @param rollups what is stored
   */
  public RollupBackend(QueryBackend delegate, Rollups rollups) {
    super(delegate);
    if (rollups == null) {
      throw new IllegalArgumentException("rollups are required");
    }
    this.rollups = rollups;
  }

  /** Steps answered from the store and steps evaluated raw for kept queries, so far. */
  public long[] stats() {
    return new long[] {stepsRead.get(), stepsEvaluated.get()};
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    long iv = rollups.intervalMs();
    String id = rollups.idOf(query);
    if (id == null || stepMs <= 0 || stepMs % iv != 0 || Math.floorMod(startMs, iv) != 0) {
      return delegate.rangeQuery(query, startMs, endMs, stepMs);
    }
    int n = (int) Math.min(Integer.MAX_VALUE - 1, (endMs - startMs) / stepMs + 1);
    Map<Labels, Points> points = new TreeMap<>();
    boolean[] covered;
    List<Noted> noted = new ArrayList<>();
    try (Querier q = rollups.store().querier()) {
      covered = covered(q, id, startMs, endMs, stepMs, n);
      if (!any(covered)) {
        return delegate.rangeQuery(query, startMs, endMs, stepMs);
      }
      readStored(q, id, startMs, endMs, stepMs, covered, points);
      readNotes(q, id, startMs, endMs, stepMs, covered, noted);
    }
    int covers = 0;
    for (int i = 0; i < n; ) {
      if (covered[i]) {
        covers++;
        i++;
        continue;
      }
      int j = i;
      while (j + 1 < n && !covered[j + 1]) {
        j++;
      }
      QueryResult raw =
          delegate.rangeQuery(query, startMs + i * stepMs, startMs + j * stepMs, stepMs);
      if (!(raw.value() instanceof Matrix)) {
        return delegate.rangeQuery(query, startMs, endMs, stepMs);
      }
      for (Annotation a : raw.annotations().all()) {
        noted.add(new Noted(startMs + i * stepMs, a));
      }
      for (TimeSeries s : ((Matrix) raw.value()).series()) {
        Points p = points.computeIfAbsent(s.labels(), k -> new Points());
        for (int k = 0; k < s.size(); k++) {
          p.add(s.timestampAt(k), s.valueAt(k));
        }
      }
      stepsEvaluated.addAndGet(j - i + 1L);
      i = j + 1;
    }
    stepsRead.addAndGet(covers);
    // by the first step each was met at, stored or raw (the list sort is stable)
    noted.sort((x, y) -> Long.compare(x.atMs(), y.atMs()));
    Set<Annotation> notes = new LinkedHashSet<>();
    noted.forEach(x -> notes.add(x.annotation()));
    List<TimeSeries> out = new ArrayList<>(points.size());
    for (Map.Entry<Labels, Points> e : points.entrySet()) {
      out.add(e.getValue().series(e.getKey()));
    }
    return new QueryResult(new Matrix(out), Annotations.of(notes));
  }

  /**
   * Which of the {@code n} steps have a marker and were not taken back since; read from the store.
   */
  private boolean[] covered(Querier q, String id, long startMs, long endMs, long stepMs, int n) {
    boolean[] covered = new boolean[n];
    SeriesSet set =
        q.select(false, startMs, endMs, List.of(Matcher.metricName(Rollups.STEPS), query(id)));
    while (set.next()) {
      SampleIterator it = set.at().iterator();
      while (it.next()) {
        long t = it.timestamp();
        if (t >= startMs && t <= endMs && (t - startMs) % stepMs == 0) {
          covered[(int) ((t - startMs) / stepMs)] = true;
        }
      }
    }
    SeriesSet revoked =
        q.select(false, startMs, Long.MAX_VALUE, List.of(Matcher.metricName(Rollups.REVOKED)));
    while (revoked.next()) {
      SampleIterator it = revoked.at().iterator();
      while (it.next()) {
        long from = Math.max(startMs, (long) it.value());
        long to = Math.min(endMs, it.timestamp());
        if (from > to) {
          continue;
        }
        long k0 = Math.floorDiv(from - startMs + stepMs - 1, stepMs);
        long k1 = Math.floorDiv(to - startMs, stepMs);
        for (long k = k0; k <= k1 && k < n; k++) {
          covered[(int) k] = false;
        }
      }
    }
    uncoverUnverified(covered, startMs, stepMs);
    return covered;
  }

  /**
   * Takes back the steps at or after the lowest sample committed since the writer's last check: a
   * late sender's samples change them, and the writer has not revoked them yet.
   */
  private void uncoverUnverified(boolean[] covered, long startMs, long stepMs) {
    Rollups.Unverified u = rollups.unverified();
    Optional<AppendWatermark> wm = delegate.appendWatermark();
    if (u == null || wm.isEmpty()) {
      return; // nothing written yet, or a writer that cannot check either
    }
    OptionalLong low = wm.get().lowestSince(u.mark());
    long from = low.isPresent() ? low.getAsLong() : u.boundMs();
    if (from > startMs + (covered.length - 1L) * stepMs) {
      return; // nothing committed since at or below the range (a scrape commits at the newest)
    }
    long k0 = from <= startMs ? 0 : Math.floorDiv(from - startMs + stepMs - 1, stepMs);
    for (long k = k0; k < covered.length; k++) {
      covered[(int) k] = false;
    }
  }

  /** The stored points of the covered steps, by the result's labels. */
  private void readStored(
      Querier q,
      String id,
      long startMs,
      long endMs,
      long stepMs,
      boolean[] covered,
      Map<Labels, Points> points) {
    SeriesSet set =
        q.select(false, startMs, endMs, List.of(Matcher.metricName(Rollups.SERIES), query(id)));
    while (set.next()) {
      Labels labels = Rollups.restored(set.at().labels());
      Points p = null;
      SampleIterator it = set.at().iterator();
      while (it.next()) {
        long t = it.timestamp();
        if (t < startMs || t > endMs || (t - startMs) % stepMs != 0) {
          continue;
        }
        if (!covered[(int) ((t - startMs) / stepMs)]) {
          continue;
        }
        if (p == null) {
          p = points.computeIfAbsent(labels, k -> new Points());
        }
        p.add(t, it.value());
      }
    }
  }

  /** An annotation and the first step it was met at. */
  private record Noted(long atMs, Annotation annotation) {}

  /** The stored annotations of the covered steps, each at the first covered step it was met at. */
  private static void readNotes(
      Querier q,
      String id,
      long startMs,
      long endMs,
      long stepMs,
      boolean[] covered,
      List<Noted> out) {
    SeriesSet set =
        q.select(false, startMs, endMs, List.of(Matcher.metricName(Rollups.NOTES), query(id)));
    while (set.next()) {
      SampleIterator it = set.at().iterator();
      while (it.next()) {
        long t = it.timestamp();
        if (t >= startMs
            && t <= endMs
            && (t - startMs) % stepMs == 0
            && covered[(int) ((t - startMs) / stepMs)]) {
          out.add(new Noted(t, Rollups.annotation(set.at().labels())));
          break;
        }
      }
    }
  }

  private static Matcher query(String id) {
    return Matcher.equal(Rollups.QUERY, id);
  }

  private static boolean any(boolean[] a) {
    for (boolean b : a) {
      if (b) {
        return true;
      }
    }
    return false;
  }

  /** One series' points as they come, stored and raw runs in any order; sorted at the end. */
  private static final class Points {
    private long[] t = new long[16];
    private double[] v = new double[16];
    private int n;
    private boolean sorted = true;

    void add(long ts, double value) {
      if (n == t.length) {
        t = java.util.Arrays.copyOf(t, n * 2);
        v = java.util.Arrays.copyOf(v, n * 2);
      }
      sorted &= n == 0 || t[n - 1] < ts;
      t[n] = ts;
      v[n++] = value;
    }

    TimeSeries series(Labels labels) {
      if (!sorted) {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
          order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(t[a], t[b]));
        long[] t2 = new long[n];
        double[] v2 = new double[n];
        for (int i = 0; i < n; i++) {
          t2[i] = t[order[i]];
          v2[i] = v[order[i]];
        }
        t = t2;
        v = v2;
      }
      return TimeSeries.wrap(labels, t, v, n);
    }
  }
}
