package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.parser.AggregateOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The folding aggregations ({@code sum}, {@code avg}, {@code count}, {@code min}, {@code max},
 * {@code group}, {@code stddev}, {@code stdvar}) computed series by series rather than step by
 * step: each input series is read once, front to back, into per-group-and-step accumulators. Values
 * meet their accumulator in the same order as in Prometheus's step-by-step loop (input order within
 * a step), so results are identical to {@link Aggregations}' step-major fold bit for bit; the gain
 * is memory locality when thousands of series feed a handful of groups.
 *
 * <p>Accumulators take (groups × steps) cells, never more than the input's points. Not thread-safe;
 * one use per evaluation.
 */
final class SeriesFold {
  private SeriesFold() {}

  static boolean supports(AggregateOp op) {
    switch (op) {
      case SUM:
      case AVG:
      case COUNT:
      case MIN:
      case MAX:
      case GROUP:
      case STDDEV:
      case STDVAR:
        return true;
      default:
        return false;
    }
  }

  static List<EvalSeries> fold(
      Evaluator ev, AggregateOp op, List<EvalSeries> in, int[] groupOf, List<Labels> groupLabels) {
    int steps = ev.numSteps;
    int nGroups = groupLabels.size();
    int cells = Math.multiplyExact(nGroups, steps);
    double[] value = new double[cells];
    boolean kahan = op == AggregateOp.SUM || op == AggregateOp.AVG;
    double[] kahanC = kahan ? new double[cells] : null;
    boolean counted =
        op == AggregateOp.AVG
            || op == AggregateOp.COUNT
            || op == AggregateOp.STDDEV
            || op == AggregateOp.STDVAR;
    double[] count = counted ? new double[cells] : null;
    boolean meaned = op == AggregateOp.AVG || op == AggregateOp.STDDEV || op == AggregateOp.STDVAR;
    double[] mean = meaned ? new double[cells] : null;
    boolean[] incremental = op == AggregateOp.AVG ? new boolean[cells] : null;
    boolean[] seen = new boolean[cells];
    boolean[] dropName = new boolean[cells];
    // one loop per operation: each is compiled on its own, so the first query of another operation
    // does not deoptimize (and recompile) the loop the earlier queries made hot
    switch (op) {
      case SUM:
        sum(ev, in, groupOf, value, kahanC, seen, dropName);
        break;
      case AVG:
        avg(ev, in, groupOf, value, kahanC, count, mean, incremental, seen, dropName);
        break;
      case MAX:
      case MIN:
        extreme(ev, in, groupOf, op == AggregateOp.MAX, value, seen, dropName);
        break;
      case COUNT:
        count(ev, in, groupOf, count, seen, dropName);
        break;
      case GROUP:
        count(ev, in, groupOf, value, seen, dropName);
        Arrays.fill(value, 1); // every seen cell is 1; the unseen ones are dropped
        break;
      default: // STDDEV, STDVAR
        variance(ev, in, groupOf, value, count, mean, seen, dropName);
    }
    List<EvalSeries> out = new ArrayList<>(nGroups);
    for (int g = 0; g < nGroups; g++) {
      EvalSeries r = null;
      int base = g * steps;
      for (int k = 0; k < steps; k++) {
        int c = base + k;
        if (!seen[c]) {
          continue;
        }
        if (r == null) {
          r = new EvalSeries(groupLabels.get(g), steps);
        }
        r.add(
            ev.start + k * ev.interval,
            Aggregations.canonicalNaN(result(op, c, value, kahanC, count, mean, incremental)));
        r.dropName = dropName[c]; // as the step-major loop: the last step's flag stands
      }
      if (r != null) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * Whether cell {@code c} meets its first value: marks it seen with the series' name flag; a later
   * series that drops its name sets the flag too.
   */
  private static boolean first(int c, EvalSeries s, boolean[] seen, boolean[] dropName) {
    if (!seen[c]) {
      seen[c] = true;
      dropName[c] = s.dropName;
      return true;
    }
    if (s.dropName) {
      dropName[c] = true;
    }
    return false;
  }

  private static void sum(
      Evaluator ev,
      List<EvalSeries> in,
      int[] groupOf,
      double[] value,
      double[] kahanC,
      boolean[] seen,
      boolean[] dropName) {
    double[] acc = new double[2];
    for (int si = 0; si < in.size(); si++) {
      ev.ctx.checkDeadline();
      EvalSeries s = in.get(si);
      int base = groupOf[si] * ev.numSteps;
      for (int i = 0; i < s.n; i++) {
        int c = base + ev.stepIndex(s.t[i]);
        double f = s.v[i];
        if (first(c, s, seen, dropName)) {
          value[c] = f;
          continue;
        }
        Kahan.inc(f, value[c], kahanC[c], acc);
        value[c] = acc[0];
        kahanC[c] = acc[1];
      }
    }
  }

  private static void avg(
      Evaluator ev,
      List<EvalSeries> in,
      int[] groupOf,
      double[] value,
      double[] kahanC,
      double[] count,
      double[] mean,
      boolean[] incremental,
      boolean[] seen,
      boolean[] dropName) {
    double[] acc = new double[2];
    for (int si = 0; si < in.size(); si++) {
      ev.ctx.checkDeadline();
      EvalSeries s = in.get(si);
      int base = groupOf[si] * ev.numSteps;
      for (int i = 0; i < s.n; i++) {
        int c = base + ev.stepIndex(s.t[i]);
        double f = s.v[i];
        if (first(c, s, seen, dropName)) {
          value[c] = f;
          mean[c] = f;
          count[c] = 1;
          continue;
        }
        count[c]++;
        if (!incremental[c]) {
          Kahan.inc(f, value[c], kahanC[c], acc);
          if (!Double.isInfinite(acc[0])) {
            value[c] = acc[0];
            kahanC[c] = acc[1];
            continue;
          }
          // The sum would overflow: continue with an incremental mean.
          incremental[c] = true;
          mean[c] = value[c] / (count[c] - 1);
          kahanC[c] /= count[c] - 1;
        }
        double q = (count[c] - 1) / count[c];
        Kahan.inc(f / count[c], q * mean[c], q * kahanC[c], acc);
        mean[c] = acc[0];
        kahanC[c] = acc[1];
      }
    }
  }

  private static void extreme(
      Evaluator ev,
      List<EvalSeries> in,
      int[] groupOf,
      boolean max,
      double[] value,
      boolean[] seen,
      boolean[] dropName) {
    for (int si = 0; si < in.size(); si++) {
      ev.ctx.checkDeadline();
      EvalSeries s = in.get(si);
      int base = groupOf[si] * ev.numSteps;
      for (int i = 0; i < s.n; i++) {
        int c = base + ev.stepIndex(s.t[i]);
        double f = s.v[i];
        if (first(c, s, seen, dropName)
            || (max ? value[c] < f : value[c] > f)
            || Double.isNaN(value[c])) {
          value[c] = f;
        }
      }
    }
  }

  /** Counts each cell's values into {@code count} (group uses it for the cells it sees). */
  private static void count(
      Evaluator ev,
      List<EvalSeries> in,
      int[] groupOf,
      double[] count,
      boolean[] seen,
      boolean[] dropName) {
    for (int si = 0; si < in.size(); si++) {
      ev.ctx.checkDeadline();
      EvalSeries s = in.get(si);
      int base = groupOf[si] * ev.numSteps;
      for (int i = 0; i < s.n; i++) {
        int c = base + ev.stepIndex(s.t[i]);
        first(c, s, seen, dropName);
        count[c]++;
      }
    }
  }

  /** Welford's running variance, as Prometheus's stddev and stdvar. */
  private static void variance(
      Evaluator ev,
      List<EvalSeries> in,
      int[] groupOf,
      double[] value,
      double[] count,
      double[] mean,
      boolean[] seen,
      boolean[] dropName) {
    for (int si = 0; si < in.size(); si++) {
      ev.ctx.checkDeadline();
      EvalSeries s = in.get(si);
      int base = groupOf[si] * ev.numSteps;
      for (int i = 0; i < s.n; i++) {
        int c = base + ev.stepIndex(s.t[i]);
        double f = s.v[i];
        if (first(c, s, seen, dropName)) {
          value[c] = Double.isNaN(f) || Double.isInfinite(f) ? Double.NaN : 0;
          mean[c] = f;
          count[c] = 1;
          continue;
        }
        count[c]++;
        double delta = f - mean[c];
        mean[c] += delta / count[c];
        value[c] += delta * (f - mean[c]);
      }
    }
  }

  private static double result(
      AggregateOp op,
      int c,
      double[] value,
      double[] kahanC,
      double[] count,
      double[] mean,
      boolean[] incremental) {
    switch (op) {
      case AVG:
        return incremental[c] ? mean[c] + kahanC[c] : value[c] / count[c] + kahanC[c] / count[c];
      case COUNT:
        return count[c];
      case STDVAR:
        return value[c] / count[c];
      case STDDEV:
        return Math.sqrt(value[c] / count[c]);
      case SUM:
        return value[c] + kahanC[c];
      default:
        return value[c];
    }
  }
}
