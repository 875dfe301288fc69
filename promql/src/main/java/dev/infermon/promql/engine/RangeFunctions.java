package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.TooManySamplesException;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Functions of a range vector ({@code rate}, {@code *_over_time}, {@code deriv}, ...), evaluated a
 * series at a time over sliding windows {@code (t - range, t]} of primitive arrays: no per-sample
 * objects, and each window reuses the previous one's position.
 */
final class RangeFunctions {
  private RangeFunctions() {}

  /** The window a function sees at one step. Reused across steps and series. */
  static final class Window {
    long[] t;
    double[] v;
    int lo;
    int hi; // exclusive
    long rangeStart; // exclusive
    long rangeEnd; // inclusive
    long rangeMs;
    long evalTs;
    double p0;
    double p1;
    double result;

    int size() {
      return hi - lo;
    }
  }

  /** Computes a function over a window; returns false when there is no result at that step. */
  @FunctionalInterface
  interface Fn {
    boolean apply(Window w, QueryContext ctx);
  }

  static boolean isRangeFunction(String name) {
    return fn(name) != null;
  }

  static List<EvalSeries> eval(Evaluator ev, Call call, int matrixArg) {
    String name = call.function().name();
    List<Expr> args = call.args();
    QueryContext ctx = ev.ctx;
    Fn fn = fn(name);
    if (fn == null) {
      throw new QueryException("function " + name + " is not supported");
    }
    int before = ctx.currentSamples;
    // Scalar arguments, one value per step.
    double[][] scalars = new double[args.size()][];
    for (int i = 0; i < args.size(); i++) {
      if (i != matrixArg) {
        scalars[i] = ev.scalarValues(args.get(i));
      }
    }
    int[] scalarIdx = new int[2];
    int k = 0;
    for (int i = 0; i < args.size() && k < 2; i++) {
      if (i != matrixArg) {
        scalarIdx[k++] = i;
      }
    }
    int nScalars = k;

    Expr arg = args.get(matrixArg);
    boolean dropName = !name.equals("last_over_time") && !name.equals("first_over_time");
    boolean counterCheck = name.equals("rate") || name.equals("increase");
    List<EvalSeries> out = new ArrayList<>();
    Window w = new Window();
    int[] outSamples = new int[1];
    Long at;
    long offset;
    if (arg instanceof MatrixSelector) {
      MatrixSelector ms = (MatrixSelector) arg;
      w.rangeMs = ms.rangeMs();
      offset = ms.selector().offsetMs();
      at = ev.atTime(ms.selector().at());
    } else {
      SubqueryExpr sq = (SubqueryExpr) arg;
      w.rangeMs = sq.rangeMs();
      offset = sq.offsetMs();
      at = ev.atTime(sq.at());
    }
    Selectors.SeriesConsumer perSeries =
        in -> {
          ctx.checkDeadline();
          EvalSeries s =
              overWindows(
                  ev,
                  fn,
                  in,
                  w,
                  at,
                  offset,
                  scalars,
                  scalarIdx,
                  nScalars,
                  before,
                  outSamples[0],
                  dropName);
          if (s == null) {
            return;
          }
          outSamples[0] += s.n;
          ctx.currentSamples = before + outSamples[0];
          if (ctx.currentSamples > ctx.options.maxSamples()) {
            throw new TooManySamplesException("query execution");
          }
          out.add(s);
          if (counterCheck) {
            String metric = in.labels.metricName();
            if (!metric.isEmpty()
                && !metric.endsWith("_total")
                && !metric.endsWith("_sum")
                && !metric.endsWith("_count")
                && !metric.endsWith("_bucket")) {
              ctx.info(
                  "metric might not be a counter, name does not end in _total/_sum/_count/_bucket: "
                      + LabelNames.goQuote(metric));
            }
          }
        };
    if (arg instanceof MatrixSelector) {
      VectorSelector vs = ((MatrixSelector) arg).selector();
      long maxt = (at != null ? at : ev.end) - offset;
      long mint = (at != null ? at : ev.start) - offset - w.rangeMs + 1;
      // Series by series through one buffer: only the outputs stay in memory.
      Selectors.forEach(ctx, vs, mint, maxt, true, perSeries);
    } else {
      for (EvalSeries in : ev.eval((SubqueryExpr) arg)) {
        // A subquery's series carry their pending name removal into the function's input.
        if (in.dropName) {
          in.labels = LabelNames.dropMetadata(in.labels);
        }
        perSeries.accept(in);
      }
    }
    ctx.currentSamples = before + outSamples[0];

    if (name.equals("absent_over_time")) {
      return absentOverTime(ev, out, args.get(matrixArg));
    }
    if (!ctx.delayedNameRemoval) {
      Evaluator.checkNoDuplicateLabels(out);
    }
    return out;
  }

  /**
   * Slides the window over one input series at every step; returns the output series, or null when
   * no step had a result.
   */
  private static EvalSeries overWindows(
      Evaluator ev,
      Fn fn,
      EvalSeries in,
      Window w,
      Long at,
      long offset,
      double[][] scalars,
      int[] scalarIdx,
      int nScalars,
      int before,
      int outSamples,
      boolean dropName) {
    QueryContext ctx = ev.ctx;
    long range = w.rangeMs;
    w.t = in.t;
    w.v = in.v;
    Labels labels = in.labels;
    if (dropName && !ctx.delayedNameRemoval) {
      labels = LabelNames.dropMetadata(labels);
    }
    EvalSeries s = null;
    int lo = 0;
    int hi = 0;
    int step = -1;
    for (long ts = ev.start; ts <= ev.end; ts += ev.interval) {
      step++;
      long maxt = (at != null ? at : ts) - offset;
      long mint = maxt - range;
      while (lo < in.n && in.t[lo] <= mint) {
        lo++;
      }
      if (hi < lo) {
        hi = lo;
      }
      while (hi < in.n && in.t[hi] <= maxt) {
        hi++;
      }
      if (hi <= lo) {
        continue;
      }
      w.lo = lo;
      w.hi = hi;
      w.rangeStart = mint;
      w.rangeEnd = maxt;
      w.evalTs = ts;
      w.p0 = nScalars > 0 ? scalars[scalarIdx[0]][step] : 0;
      w.p1 = nScalars > 1 ? scalars[scalarIdx[1]][step] : 0;
      ctx.currentSamples = before + outSamples + (hi - lo);
      if (ctx.currentSamples > ctx.options.maxSamples()) {
        throw new TooManySamplesException("query execution");
      }
      if (fn.apply(w, ctx)) {
        if (s == null) {
          s = new EvalSeries(labels, Math.min(ev.numSteps, 64));
          s.dropName = dropName;
        }
        s.add(ts, w.result);
      }
    }
    return s;
  }

  private static List<EvalSeries> absentOverTime(Evaluator ev, List<EvalSeries> mat, Expr arg) {
    boolean[] found = new boolean[ev.numSteps];
    int count = 0;
    for (EvalSeries s : mat) {
      for (int i = 0; i < s.n; i++) {
        int idx = ev.stepIndex(s.t[i]);
        if (!found[idx]) {
          found[idx] = true;
          count++;
        }
      }
    }
    List<EvalSeries> out = new ArrayList<>(1);
    if (count == ev.numSteps) {
      return out;
    }
    EvalSeries s = new EvalSeries(InstantFunctions.absentLabels(arg), ev.numSteps - count);
    s.dropName = true;
    for (int i = 0; i < ev.numSteps; i++) {
      if (!found[i]) {
        s.add(ev.start + i * ev.interval, 1);
      }
    }
    out.add(s);
    return out;
  }

  private static Fn fn(String name) {
    switch (name) {
      case "rate":
        return (w, c) -> extrapolatedRate(w, true, true);
      case "increase":
        return (w, c) -> extrapolatedRate(w, true, false);
      case "delta":
        return (w, c) -> extrapolatedRate(w, false, false);
      case "irate":
        return (w, c) -> instantValue(w, true);
      case "idelta":
        return (w, c) -> instantValue(w, false);
      case "avg_over_time":
        return (w, c) -> set(w, avg(w));
      case "sum_over_time":
        return (w, c) -> set(w, sum(w));
      case "count_over_time":
        return (w, c) -> set(w, w.size());
      case "min_over_time":
        return (w, c) -> set(w, extreme(w, false));
      case "max_over_time":
        return (w, c) -> set(w, extreme(w, true));
      case "last_over_time":
        return (w, c) -> set(w, w.v[w.hi - 1]);
      case "first_over_time":
        return (w, c) -> set(w, w.v[w.lo]);
      case "present_over_time":
      case "absent_over_time":
        return (w, c) -> set(w, 1);
      case "quantile_over_time":
        return RangeFunctions::quantileOverTime;
      case "stddev_over_time":
        return (w, c) -> set(w, Math.sqrt(variance(w)));
      case "stdvar_over_time":
        return (w, c) -> set(w, variance(w));
      case "mad_over_time":
        return (w, c) -> set(w, mad(w));
      case "changes":
        return (w, c) -> set(w, changes(w));
      case "resets":
        return (w, c) -> set(w, resets(w));
      case "deriv":
        return RangeFunctions::deriv;
      case "predict_linear":
        return RangeFunctions::predictLinear;
      case "holt_winters":
      case "double_exponential_smoothing":
        return RangeFunctions::doubleExponentialSmoothing;
      case "ts_of_min_over_time":
        return (w, c) -> set(w, tsOfExtreme(w, false));
      case "ts_of_max_over_time":
        return (w, c) -> set(w, tsOfExtreme(w, true));
      case "ts_of_first_over_time":
        return (w, c) -> set(w, w.t[w.lo] / 1000.0);
      case "ts_of_last_over_time":
        return (w, c) -> set(w, w.t[w.hi - 1] / 1000.0);
      default:
        return null;
    }
  }

  private static boolean set(Window w, double value) {
    w.result = value;
    return true;
  }

  /** Prometheus 3's {@code extrapolatedRate}: rate, increase and delta. */
  static boolean extrapolatedRate(Window w, boolean isCounter, boolean isRate) {
    int n = w.size();
    if (n < 2) {
      return false;
    }
    long[] t = w.t;
    double[] v = w.v;
    int first = w.lo;
    int last = w.hi - 1;
    double result = v[last] - v[first];
    if (isCounter) {
      double prev = v[first];
      for (int i = first + 1; i <= last; i++) {
        if (v[i] < prev) {
          result += prev;
        }
        prev = v[i];
      }
    }
    double durationToStart = (t[first] - w.rangeStart) / 1000.0;
    double durationToEnd = (w.rangeEnd - t[last]) / 1000.0;
    double sampledInterval = (t[last] - t[first]) / 1000.0;
    double averageDurationBetweenSamples = sampledInterval / (n - 1);
    double extrapolationThreshold = averageDurationBetweenSamples * 1.1;
    if (durationToStart >= extrapolationThreshold) {
      durationToStart = averageDurationBetweenSamples / 2;
    }
    if (isCounter) {
      // A counter cannot go below zero: do not extrapolate the start past the zero point.
      double durationToZero = durationToStart;
      if (result > 0 && v[first] >= 0) {
        durationToZero = sampledInterval * (v[first] / result);
      }
      if (durationToZero < durationToStart) {
        durationToStart = durationToZero;
      }
    }
    if (durationToEnd >= extrapolationThreshold) {
      durationToEnd = averageDurationBetweenSamples / 2;
    }
    double factor = (sampledInterval + durationToStart + durationToEnd) / sampledInterval;
    if (isRate) {
      factor /= w.rangeMs / 1000.0;
    }
    w.result = result * factor;
    return true;
  }

  /** irate and idelta: the last two samples only. */
  static boolean instantValue(Window w, boolean isRate) {
    if (w.size() < 2) {
      return false;
    }
    int last = w.hi - 1;
    double prev = w.v[last - 1];
    double cur = w.v[last];
    long dt = w.t[last] - w.t[last - 1];
    if (dt == 0) {
      return false;
    }
    double result = cur;
    if (!isRate || !(cur < prev)) {
      result = cur - prev;
    }
    if (isRate) {
      result /= dt / 1000.0;
    }
    w.result = result;
    return true;
  }

  static double sum(Window w) {
    double sum = 0;
    double c = 0;
    for (int i = w.lo; i < w.hi; i++) {
      double inc = w.v[i];
      double t = sum + inc;
      if (Double.isInfinite(t)) {
        c = 0;
      } else if (Math.abs(sum) >= Math.abs(inc)) {
        c += (sum - t) + inc;
      } else {
        c += (inc - t) + sum;
      }
      sum = t;
    }
    return Double.isInfinite(sum) ? sum : sum + c;
  }

  static double avg(Window w) {
    double sum = w.v[w.lo];
    double count = 1;
    double mean = 0;
    double kahanC = 0;
    boolean incremental = false;
    double[] acc = new double[2];
    for (int i = w.lo + 1; i < w.hi; i++) {
      double f = w.v[i];
      count = i - w.lo + 1;
      if (!incremental) {
        Kahan.inc(f, sum, kahanC, acc);
        if (!Double.isInfinite(acc[0])) {
          sum = acc[0];
          kahanC = acc[1];
          continue;
        }
        incremental = true;
        mean = sum / (count - 1);
        kahanC /= count - 1;
      }
      double q = (count - 1) / count;
      Kahan.inc(f / count, q * mean, q * kahanC, acc);
      mean = acc[0];
      kahanC = acc[1];
    }
    if (incremental) {
      return mean + kahanC;
    }
    return sum / count + kahanC / count;
  }

  private static double extreme(Window w, boolean max) {
    double best = w.v[w.lo];
    for (int i = w.lo; i < w.hi; i++) {
      double cur = w.v[i];
      if ((max ? cur > best : cur < best) || Double.isNaN(best)) {
        best = cur;
      }
    }
    return best;
  }

  private static double tsOfExtreme(Window w, boolean max) {
    double best = w.v[w.lo];
    long ts = w.t[w.lo];
    for (int i = w.lo; i < w.hi; i++) {
      double cur = w.v[i];
      if ((max ? cur >= best : cur <= best) || Double.isNaN(best)) {
        best = cur;
        ts = w.t[i];
      }
    }
    return ts / 1000.0;
  }

  private static boolean quantileOverTime(Window w, QueryContext ctx) {
    double q = w.p0;
    if (Double.isNaN(q) || q < 0 || q > 1) {
      ctx.warn("quantile value should be between 0 and 1, got " + GoFormat.g(q));
    }
    double[] values = Arrays.copyOfRange(w.v, w.lo, w.hi);
    w.result = Quantiles.quantile(q, values, values.length);
    return true;
  }

  static double variance(Window w) {
    double count = 0;
    double mean = 0;
    double cMean = 0;
    double aux = 0;
    double cAux = 0;
    double[] acc = new double[2];
    for (int i = w.lo; i < w.hi; i++) {
      double f = w.v[i];
      count++;
      double delta = f - (mean + cMean);
      Kahan.inc(delta / count, mean, cMean, acc);
      mean = acc[0];
      cMean = acc[1];
      Kahan.inc(delta * (f - (mean + cMean)), aux, cAux, acc);
      aux = acc[0];
      cAux = acc[1];
    }
    return (aux + cAux) / count;
  }

  private static double mad(Window w) {
    int n = w.size();
    for (int i = w.lo; i < w.hi; i++) {
      if (Double.isNaN(w.v[i])) {
        return Double.NaN; // a NaN sample makes the deviation undefined
      }
    }
    double[] values = Arrays.copyOfRange(w.v, w.lo, w.hi);
    double median = Quantiles.quantile(0.5, values, n);
    for (int i = 0; i < n; i++) {
      values[i] = Math.abs(w.v[w.lo + i] - median);
    }
    return Quantiles.quantile(0.5, values, n);
  }

  private static double changes(Window w) {
    int changes = 0;
    for (int i = w.lo + 1; i < w.hi; i++) {
      double prev = w.v[i - 1];
      double cur = w.v[i];
      if (cur != prev && !(Double.isNaN(cur) && Double.isNaN(prev))) {
        changes++;
      }
    }
    return changes;
  }

  private static double resets(Window w) {
    int resets = 0;
    for (int i = w.lo + 1; i < w.hi; i++) {
      if (w.v[i] < w.v[i - 1]) {
        resets++;
      }
    }
    return resets;
  }

  private static boolean deriv(Window w, QueryContext ctx) {
    if (w.size() < 2) {
      return false;
    }
    // The intercept time is a sample's time, to avoid precision loss far from the epoch.
    double[] si = linearRegression(w, w.t[w.lo]);
    w.result = si[0];
    return true;
  }

  private static boolean predictLinear(Window w, QueryContext ctx) {
    if (w.size() < 2) {
      return false;
    }
    double[] si = linearRegression(w, w.evalTs);
    w.result = si[0] * w.p0 + si[1];
    return true;
  }

  /** Least-squares slope and the intercept at {@code interceptTime}, with Kahan sums. */
  static double[] linearRegression(Window w, long interceptTime) {
    double n = 0;
    double sumX = 0;
    double cX = 0;
    double sumY = 0;
    double cY = 0;
    double sumXY = 0;
    double cXY = 0;
    double sumX2 = 0;
    double cX2 = 0;
    double initY = w.v[w.lo];
    boolean constY = true;
    double[] acc = new double[2];
    for (int i = w.lo; i < w.hi; i++) {
      double y = w.v[i];
      if (constY && i > w.lo && y != initY) {
        constY = false;
      }
      n += 1.0;
      double x = (w.t[i] - interceptTime) / 1e3;
      Kahan.inc(x, sumX, cX, acc);
      sumX = acc[0];
      cX = acc[1];
      Kahan.inc(y, sumY, cY, acc);
      sumY = acc[0];
      cY = acc[1];
      Kahan.inc(x * y, sumXY, cXY, acc);
      sumXY = acc[0];
      cXY = acc[1];
      Kahan.inc(x * x, sumX2, cX2, acc);
      sumX2 = acc[0];
      cX2 = acc[1];
    }
    if (constY) {
      if (Double.isInfinite(initY)) {
        return new double[] {Double.NaN, Double.NaN};
      }
      return new double[] {0, initY};
    }
    sumX += cX;
    sumY += cY;
    sumXY += cXY;
    sumX2 += cX2;
    double covXY = sumXY - sumX * sumY / n;
    double varX = sumX2 - sumX * sumX / n;
    double slope = covXY / varX;
    double intercept = sumY / n - slope * sumX / n;
    return new double[] {slope, intercept};
  }

  private static boolean doubleExponentialSmoothing(Window w, QueryContext ctx) {
    double sf = w.p0;
    double tf = w.p1;
    if (sf <= 0 || sf >= 1) {
      throw new QueryException(
          "invalid smoothing factor. Expected: 0 < sf < 1, got: " + GoFormat.f(sf));
    }
    if (tf <= 0 || tf >= 1) {
      throw new QueryException(
          "invalid trend factor. Expected: 0 < tf < 1, got: " + GoFormat.f(tf));
    }
    int l = w.size();
    if (l < 2) {
      return false;
    }
    double s0 = 0;
    double s1 = w.v[w.lo];
    double b = w.v[w.lo + 1] - w.v[w.lo];
    for (int i = 1; i < l; i++) {
      double x = sf * w.v[w.lo + i];
      // The trend at i-1 (the first trend is the first difference).
      if (i - 1 != 0) {
        b = tf * (s1 - s0) + (1 - tf) * b;
      }
      double y = (1 - sf) * (s1 + b);
      s0 = s1;
      s1 = x + y;
    }
    w.result = s1;
    return true;
  }
}
