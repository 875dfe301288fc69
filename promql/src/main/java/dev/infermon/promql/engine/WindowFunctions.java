package dev.infermon.promql.engine;

import dev.infermon.promql.QueryException;
import java.util.Arrays;

/**
 * The functions of a range vector over one window: {@code rate} and its kin with Prometheus's
 * extrapolation, the {@code *_over_time} family, {@code deriv}, {@code predict_linear}, ... Each
 * reads the window's primitive arrays in place and writes its result into it; none allocates per
 * sample. Stateless; {@link RangeFunctions} slides the window.
 */
final class WindowFunctions {
  private WindowFunctions() {}

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

  static Fn fn(String name) {
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
        return WindowFunctions::quantileOverTime;
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
        return WindowFunctions::deriv;
      case "predict_linear":
        return WindowFunctions::predictLinear;
      case "holt_winters":
      case "double_exponential_smoothing":
        return WindowFunctions::doubleExponentialSmoothing;
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
