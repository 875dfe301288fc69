package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.text.GoQuote;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.parser.Expr;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code histogram_quantile} and {@code histogram_fraction} over classic histograms: buckets are
 * the series that share all labels but {@code le}. The grouping of input series is computed once
 * per query, then each step only gathers counts into reused arrays.
 */
final class HistogramFunctions {
  /** Bucket differences this small (relative) are float noise, not monotonicity violations. */
  private static final double SMALL_DELTA_TOLERANCE = 1e-12;

  private static final Set<String> LE = Set.of(LabelNames.BUCKET);

  private HistogramFunctions() {}

  @FunctionalInterface
  private interface BucketFn {
    /** Computes the group's value from sorted-by-input buckets; may add annotations. */
    double apply(double[] upper, double[] count, int n, int step, Labels group);
  }

  static List<EvalSeries> quantile(Evaluator ev, List<Expr> args) {
    double[] q = ev.scalarValues(args.get(0));
    QueryContext ctx = ev.ctx;
    for (double qv : q) {
      if (Double.isNaN(qv) || qv < 0 || qv > 1) {
        ctx.warn("quantile value should be between 0 and 1, got " + GoFormat.g(qv));
      }
    }
    return byGroup(
        ev,
        args.get(1),
        (upper, count, n, step, group) -> {
          Result r = bucketQuantile(q[step], upper, count, n);
          if (r.forcedMonotonic) {
            String name = ctx.delayedNameRemoval ? group.metricName() : "";
            ctx.info(
                "input to histogram_quantile needed to be fixed for monotonicity (see"
                    + " https://prometheus.io/docs/prometheus/latest/querying/functions/#histogram_quantile)"
                    + forMetric(name));
          }
          return r.value;
        });
  }

  /**
   * {@code histogram_quantiles(v, "label", q1, q2, ...)}: one series per group and quantile, the
   * quantile in {@code label} formatted as OpenMetrics does ({@code 0.5}, {@code 1.0}).
   */
  static List<EvalSeries> quantiles(Evaluator ev, List<Expr> args) {
    String label = LabelFunctions.stringArg(args.get(1));
    if (!LabelNames.isValidLabelName(label)) {
      throw new QueryException("invalid label name " + GoQuote.quote(label));
    }
    List<EvalSeries> all = new ArrayList<>();
    for (int i = 2; i < args.size(); i++) {
      List<EvalSeries> one = quantile(ev, List.of(args.get(i), args.get(0)));
      double[] q = ev.scalarValues(args.get(i));
      String value = GoFormat.openMetrics(q.length == 0 ? Double.NaN : q[0]);
      for (EvalSeries s : one) {
        s.labels = s.labels.toBuilder().set(label, value).build();
      }
      all.addAll(one);
    }
    return Evaluator.mergeSameLabels(all);
  }

  static List<EvalSeries> fraction(Evaluator ev, List<Expr> args) {
    double[] lower = ev.scalarValues(args.get(0));
    double[] upperArg = ev.scalarValues(args.get(1));
    return byGroup(
        ev,
        args.get(2),
        (upper, count, n, step, group) ->
            bucketFraction(lower[step], upperArg[step], upper, count, n));
  }

  private static String forMetric(String name) {
    return name.isEmpty() ? "" : " for metric name " + GoQuote.quote(name);
  }

  private static List<EvalSeries> byGroup(Evaluator ev, Expr vectorArg, BucketFn fn) {
    QueryContext ctx = ev.ctx;
    List<EvalSeries> in = ev.eval(vectorArg);
    int nIn = in.size();
    double[] le = new double[nIn];
    boolean[] badLe = new boolean[nIn];
    int[] group = new int[nIn];
    Map<Labels, Integer> groups = new HashMap<>();
    List<Labels> groupLabels = new ArrayList<>();
    for (int i = 0; i < nIn; i++) {
      Labels l = in.get(i).labels;
      String leValue = l.get(LabelNames.BUCKET);
      try {
        le[i] = GoParse.parseFloat(leValue);
      } catch (NumberFormatException e) {
        badLe[i] = true;
        continue;
      }
      Labels key = l.without(LE);
      Integer g = groups.get(key);
      if (g == null) {
        g = groupLabels.size();
        groups.put(key, g);
        groupLabels.add(key);
      }
      group[i] = g;
    }
    int nGroups = groupLabels.size();
    EvalSeries[] out = new EvalSeries[nGroups];
    int[] sizes = new int[nGroups];
    double[][] upper = new double[nGroups][];
    double[][] count = new double[nGroups][];
    int[] cursor = new int[nIn];
    int[] touched = new int[nGroups];
    // Visit the inputs by ascending le, so each group's buckets arrive sorted.
    int[] byLe = orderByLe(le, badLe);
    for (long ts = ev.start; ts <= ev.end; ts += ev.interval) {
      ctx.checkDeadline();
      int step = ev.stepIndex(ts);
      int nTouched = 0;
      for (int i : byLe) {
        EvalSeries s = in.get(i);
        int c = cursor[i];
        if (c >= s.n || s.t[c] != ts) {
          continue;
        }
        cursor[i] = c + 1;
        if (badLe[i]) {
          String name = ctx.delayedNameRemoval ? s.labels.metricName() : "";
          ctx.warn(
              "bucket label \"le\" is missing or has a malformed value of "
                  + GoQuote.quote(s.labels.get(LabelNames.BUCKET))
                  + forMetric(name));
          continue;
        }
        int g = group[i];
        if (sizes[g] == 0) {
          touched[nTouched++] = g;
          if (upper[g] == null) {
            upper[g] = new double[8];
            count[g] = new double[8];
          }
        } else if (sizes[g] == upper[g].length) {
          upper[g] = Arrays.copyOf(upper[g], sizes[g] * 2);
          count[g] = Arrays.copyOf(count[g], sizes[g] * 2);
        }
        upper[g][sizes[g]] = le[i];
        count[g][sizes[g]] = s.v[c];
        sizes[g]++;
      }
      Arrays.sort(touched, 0, nTouched);
      for (int k = 0; k < nTouched; k++) {
        int g = touched[k];
        double v = fn.apply(upper[g], count[g], sizes[g], step, groupLabels.get(g));
        sizes[g] = 0;
        if (out[g] == null) {
          Labels l = groupLabels.get(g);
          if (!ctx.delayedNameRemoval) {
            l = LabelNames.dropMetadata(l);
          }
          out[g] = new EvalSeries(l, Math.min(ev.numSteps, 64));
          out[g].dropName = true;
        }
        out[g].add(ts, v);
      }
    }
    List<EvalSeries> res = new ArrayList<>(nGroups);
    for (EvalSeries s : out) {
      if (s != null) {
        ctx.addSamples(s.n);
        res.add(s);
      }
    }
    return ctx.delayedNameRemoval ? res : Evaluator.mergeSameLabels(res);
  }

  /** Input indexes sorted by upper bound (stable; malformed ones last). */
  private static int[] orderByLe(double[] le, boolean[] bad) {
    Integer[] order = new Integer[le.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        (a, b) -> {
          if (bad[a] || bad[b]) {
            return Boolean.compare(bad[a], bad[b]);
          }
          return Double.compare(le[a], le[b]);
        });
    int[] out = new int[order.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = order[i];
    }
    return out;
  }

  /** A quantile and whether the buckets had to be made monotonic. */
  static final class Result {
    final double value;
    final boolean forcedMonotonic;

    Result(double value, boolean forcedMonotonic) {
      this.value = value;
      this.forcedMonotonic = forcedMonotonic;
    }
  }

  /**
   * Prometheus's {@code BucketQuantile}: sorts and merges buckets by upper bound, requires a {@code
   * +Inf} bucket, forces monotonicity, and interpolates linearly inside the bucket holding rank
   * {@code q * total} (with 0 as the lower bound of a positive first bucket). Sorts, merges and
   * fixes {@code upper} and {@code count} in place: they are the caller's scratch.
   */
  static Result bucketQuantile(double q, double[] upper, double[] count, int nIn) {
    if (Double.isNaN(q)) {
      return new Result(Double.NaN, false);
    }
    if (q < 0) {
      return new Result(Double.NEGATIVE_INFINITY, false);
    }
    if (q > 1) {
      return new Result(Double.POSITIVE_INFINITY, false);
    }
    // The arrays are the caller's scratch for this step: sorted, merged and fixed in place.
    int n = sortAndCoalesce(upper, count, nIn);
    if (n == 0) {
      return new Result(Double.NaN, false);
    }
    boolean forced = false;
    double prev = count[0];
    for (int i = 1; i < n; i++) {
      double curr = count[i];
      if (curr == prev) {
        continue;
      }
      if (Almost.equal(prev, curr, SMALL_DELTA_TOLERANCE)) {
        count[i] = prev;
        continue;
      }
      if (curr < prev) {
        count[i] = prev;
        forced = true;
        continue;
      }
      prev = curr;
    }
    if (n < 2) {
      return new Result(Double.NaN, false);
    }
    double observations = count[n - 1];
    if (observations == 0) {
      return new Result(Double.NaN, false);
    }
    double rank = q * observations;
    int idx;
    int lo = 0;
    int hi = n - 1;
    while (lo < hi) { // first index in [0, n-1) with count >= rank, else n-1
      int mid = (lo + hi) >>> 1;
      if (count[mid] >= rank) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    idx = lo;
    if (idx == n - 1) {
      return new Result(upper[n - 2], forced);
    }
    if (idx == 0 && upper[0] <= 0) {
      return new Result(upper[0], forced);
    }
    double bucketStart = 0;
    double bucketEnd = upper[idx];
    double c = count[idx];
    if (idx > 0) {
      bucketStart = upper[idx - 1];
      c -= count[idx - 1];
      rank -= count[idx - 1];
    }
    return new Result(bucketStart + (bucketEnd - bucketStart) * (rank / c), forced);
  }

  /** Prometheus's {@code BucketFraction}: the share of observations in (lower, upper]. */
  static double bucketFraction(
      double lower, double upperBound, double[] upper, double[] count, int nIn) {
    int n = sortAndCoalesce(upper, count, nIn);
    if (n == 0) {
      return Double.NaN;
    }
    double total = count[n - 1];
    if (total == 0 || Double.isNaN(lower) || Double.isNaN(upperBound)) {
      return Double.NaN;
    }
    if (lower >= upperBound) {
      return 0;
    }
    double rank = 0;
    double lowerRank = 0;
    double upperRank = 0;
    boolean lowerSet = false;
    boolean upperSet = false;
    double lowerB = upper[0] <= 0 ? Double.NEGATIVE_INFINITY : 0;
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        lowerB = upper[i - 1];
      }
      double upperB = upper[i];
      double bc = count[i];
      if (!lowerSet && lowerB >= lower) {
        lowerRank = rank;
        lowerSet = true;
      }
      if (!upperSet && lowerB >= upperBound) {
        upperRank = rank;
        upperSet = true;
      }
      if (lowerSet && upperSet) {
        break;
      }
      if (!lowerSet && lowerB < lower && upperB > lower) {
        lowerRank = interpolate(lower, lowerB, upperB, rank, bc);
        lowerSet = true;
      }
      if (!upperSet && lowerB < upperBound && upperB > upperBound) {
        upperRank = interpolate(upperBound, lowerB, upperB, rank, bc);
        upperSet = true;
      }
      if (lowerSet && upperSet) {
        break;
      }
      rank = bc;
    }
    if (!lowerSet || lowerRank > total) {
      lowerRank = total;
    }
    if (!upperSet || upperRank > total) {
      upperRank = total;
    }
    return (upperRank - lowerRank) / total;
  }

  private static double interpolate(double v, double lowerB, double upperB, double rank, double c) {
    if (lowerB == Double.NEGATIVE_INFINITY) {
      return c;
    }
    return rank + (c - rank) * (v - lowerB) / (upperB - lowerB);
  }

  /**
   * Sorts the first {@code n} buckets by upper bound in place and merges equal bounds; returns how
   * many remain, or 0 without a {@code +Inf} bucket. An insertion sort: {@link #byGroup} gathers
   * the buckets already in order, so this is one pass without allocation.
   */
  private static int sortAndCoalesce(double[] upper, double[] count, int n) {
    if (n == 0) {
      return 0;
    }
    for (int i = 1; i < n; i++) {
      double u = upper[i];
      double c = count[i];
      int j = i - 1;
      while (j >= 0 && upper[j] > u) {
        upper[j + 1] = upper[j];
        count[j + 1] = count[j];
        j--;
      }
      upper[j + 1] = u;
      count[j + 1] = c;
    }
    if (upper[n - 1] != Double.POSITIVE_INFINITY) {
      return 0;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (k > 0 && upper[k - 1] == upper[i]) {
        count[k - 1] += count[i];
      } else {
        upper[k] = upper[i];
        count[k] = count[i];
        k++;
      }
    }
    return k;
  }
}
