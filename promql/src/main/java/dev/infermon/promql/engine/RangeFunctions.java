package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.text.GoQuote;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.TooManySamplesException;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.List;

/**
 * Functions of a range vector ({@code rate}, {@code *_over_time}, {@code deriv}, ...), evaluated a
 * series at a time over sliding windows {@code (t - range, t]} of primitive arrays: no per-sample
 * objects, and each window reuses the previous one's position. Series come from storage one by one
 * through a reused buffer; what a function computes over one window is in {@link WindowFunctions}.
 */
final class RangeFunctions {
  private RangeFunctions() {}

  static boolean isRangeFunction(String name) {
    return WindowFunctions.fn(name) != null;
  }

  static List<EvalSeries> eval(Evaluator ev, Call call, int matrixArg) {
    String name = call.function().name();
    List<Expr> args = call.args();
    QueryContext ctx = ev.ctx;
    WindowFunctions.Fn fn = WindowFunctions.fn(name);
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
    WindowFunctions.Window w = new WindowFunctions.Window();
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
                      + GoQuote.quote(metric));
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
      WindowFunctions.Fn fn,
      EvalSeries in,
      WindowFunctions.Window w,
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
      // One series can span millions of steps (a fine subquery): check the deadline per step,
      // not only per series (checkDeadline reads the clock once every 64 calls).
      ev.ctx.checkDeadline();
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
}
