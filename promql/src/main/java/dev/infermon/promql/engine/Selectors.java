package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.VectorSelector;
import dev.infermon.promql.value.Annotation;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads series from storage: instant selectors with the lookback window {@code (t - lookback, t]}
 * and range selectors with the window {@code (t - range, t]}, both left-open as in Prometheus 3.
 * Staleness markers end a series for instant selectors and are dropped from range windows.
 */
final class Selectors {
  private Selectors() {}

  /** Receives the series of a selection one at a time. */
  @FunctionalInterface
  interface SeriesConsumer {
    /**
     * Called once per series with samples in the range. The series is a buffer reused for the next
     * one: it (and its arrays) must not be kept beyond the call.
     */
    void accept(EvalSeries series);
  }

  /**
   * Loads the samples of every matching series in {@code [mint, maxt]} into arrays.
   *
   * @param dropStale whether to leave staleness markers out (range windows never contain them)
   */
  static List<EvalSeries> load(
      QueryContext ctx, VectorSelector vs, long mint, long maxt, boolean dropStale) {
    List<EvalSeries> out = new ArrayList<>();
    if (mint > maxt) {
      return out;
    }
    SeriesSet set = ctx.querier.select(false, mint, maxt, vs.matchers());
    while (set.next()) {
      ctx.checkDeadline();
      Series s = set.at();
      EvalSeries r = new EvalSeries(s.labels(), 16);
      fill(s.iterator(), r, mint, maxt, dropStale);
      if (r.n > 0) {
        out.add(r);
      }
    }
    addWarnings(ctx, set);
    return out;
  }

  /**
   * As {@link #load}, but hands the series to {@code consumer} one by one in a single reused
   * buffer, so a query over many long series holds one series' samples at a time rather than all of
   * them (Prometheus also evaluates range functions series by series).
   */
  static void forEach(
      QueryContext ctx,
      VectorSelector vs,
      long mint,
      long maxt,
      boolean dropStale,
      SeriesConsumer consumer) {
    if (mint > maxt) {
      return;
    }
    SeriesSet set = ctx.querier.select(false, mint, maxt, vs.matchers());
    EvalSeries buffer = new EvalSeries(Labels.EMPTY, 64);
    while (set.next()) {
      ctx.checkDeadline();
      Series s = set.at();
      buffer.labels = s.labels();
      buffer.n = 0;
      fill(s.iterator(), buffer, mint, maxt, dropStale);
      if (buffer.n > 0) {
        consumer.accept(buffer);
      }
    }
    addWarnings(ctx, set);
  }

  /**
   * Appends the samples in {@code [mint, maxt]} to {@code into}, in runs read by {@link
   * SampleIterator#nextBatch} straight into its arrays.
   */
  private static void fill(
      SampleIterator it, EvalSeries into, long mint, long maxt, boolean dropStale) {
    if (!it.seek(mint)) {
      return;
    }
    long t0 = it.timestamp();
    if (t0 > maxt) {
      return;
    }
    double v0 = it.value();
    if (!(dropStale && StaleNaN.is(v0))) {
      into.add(t0, v0);
    }
    while (true) {
      if (into.t.length - into.n < 32) {
        into.grow();
      }
      int from = into.n;
      int len = into.t.length - from;
      int r = it.nextBatch(into.t, into.v, from, len, maxt);
      int got = r < 0 ? ~r : r;
      into.n = from + got;
      if (dropStale) {
        dropStale(into, from);
      }
      if (got < len) {
        return; // the iterator ran out or went past maxt
      }
    }
  }

  /** Removes staleness markers among the points from index {@code from} on. */
  private static void dropStale(EvalSeries s, int from) {
    int w = from;
    for (int i = from; i < s.n; i++) {
      if (!StaleNaN.is(s.v[i])) {
        s.t[w] = s.t[i];
        s.v[w] = s.v[i];
        w++;
      }
    }
    s.n = w;
  }

  private static void addWarnings(QueryContext ctx, SeriesSet set) {
    for (String w : set.warnings()) {
      ctx.annotations.add(new Annotation(Annotation.Severity.WARNING, w));
    }
  }

  /**
   * An instant selector at every step: per series, the newest sample in the lookback window, unless
   * it is a staleness marker.
   *
   * @param sampleTimestamps return the sample's time in seconds instead of its value (for {@code
   *     timestamp()})
   */
  static List<EvalSeries> instantVector(Evaluator ev, VectorSelector vs, boolean sampleTimestamps) {
    QueryContext ctx = ev.ctx;
    Long at = ev.atTime(vs.at());
    long offset = vs.offsetMs();
    long lookback = ctx.lookbackMs;
    long firstRef = (at != null ? at : ev.start) - offset;
    long lastRef = (at != null ? at : ev.end) - offset;
    List<EvalSeries> out = new ArrayList<>();
    if (at == null && ev.interval > lookback && ev.numSteps > 1) {
      sparse(ev, vs, firstRef - lookback + 1, lastRef, sampleTimestamps, out);
      return out;
    }
    forEach(
        ctx,
        vs,
        firstRef - lookback + 1,
        lastRef,
        false,
        r -> {
          EvalSeries s = null;
          int c = -1; // index of the newest sample at or before the reference time
          for (long ts = ev.start; ts <= ev.end; ts += ev.interval) {
            long ref = (at != null ? at : ts) - offset;
            while (c + 1 < r.n && r.t[c + 1] <= ref) {
              c++;
            }
            if (c < 0 || r.t[c] <= ref - lookback || StaleNaN.is(r.v[c])) {
              continue;
            }
            if (s == null) {
              s = new EvalSeries(r.labels, Math.min(ev.numSteps, r.n + 1));
            }
            s.add(ts, sampleTimestamps ? r.t[c] / 1000.0 : r.v[c]);
          }
          if (s != null) {
            ctx.addSamples(s.n);
            out.add(s);
          }
        });
    return out;
  }

  /**
   * {@link #instantVector} when the steps are further apart than the lookback window (a subquery
   * such as {@code max_over_time(x[6h:36m])}): the windows {@code (ref - lookback, ref]} do not
   * overlap, so each series' iterator seeks to each step's window and reads only the samples in it,
   * skipping the chunks between windows undecoded, rather than loading every sample of the range.
   * The same samples answer each step as in the dense path.
   */
  private static void sparse(
      Evaluator ev,
      VectorSelector vs,
      long mint,
      long maxt,
      boolean sampleTimestamps,
      List<EvalSeries> out) {
    QueryContext ctx = ev.ctx;
    long offset = vs.offsetMs();
    long lookback = ctx.lookbackMs;
    SeriesSet set = ctx.querier.select(false, mint, maxt, vs.matchers());
    while (set.next()) {
      ctx.checkDeadline();
      Series series = set.at();
      SampleIterator it = series.iterator();
      EvalSeries s = null;
      for (long ts = ev.start; ts <= ev.end; ts += ev.interval) {
        long ref = ts - offset;
        if (!it.seek(ref - lookback + 1)) {
          break; // no sample at or after this window: none for the later steps either
        }
        long t = it.timestamp();
        if (t > ref) {
          continue;
        }
        double v = it.value();
        while (it.next()) {
          if (it.timestamp() > ref) {
            break; // the iterator stays on it: the next window's seek starts there
          }
          t = it.timestamp();
          v = it.value();
        }
        if (StaleNaN.is(v)) {
          continue;
        }
        if (s == null) {
          s = new EvalSeries(series.labels(), Math.min(ev.numSteps, 16));
        }
        s.add(ts, sampleTimestamps ? t / 1000.0 : v);
      }
      if (s != null) {
        ctx.addSamples(s.n);
        out.add(s);
      }
    }
    addWarnings(ctx, set);
  }

  /** A range selector evaluated once (instant query): raw points in the window. */
  static List<EvalSeries> rangeVectorAtInstant(Evaluator ev, MatrixSelector ms) {
    VectorSelector vs = ms.selector();
    Long at = ev.atTime(vs.at());
    long maxt = (at != null ? at : ev.start) - vs.offsetMs();
    long mint = maxt - ms.rangeMs();
    List<EvalSeries> out = load(ev.ctx, vs, mint + 1, maxt, true);
    for (EvalSeries s : out) {
      ev.ctx.addSamples(s.n);
    }
    return out;
  }

  /** First index in {@code [from, n)} whose time is greater than {@code t}. */
  static int firstAfter(long[] ts, int from, int n, long t) {
    int lo = from;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ts[mid] <= t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
