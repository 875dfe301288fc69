package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.AtModifier;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.NumberLiteral;
import dev.infermon.promql.parser.ParenExpr;
import dev.infermon.promql.parser.StepInvariantExpr;
import dev.infermon.promql.parser.StringLiteral;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.UnaryExpr;
import dev.infermon.promql.parser.ValueType;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates an expression at the steps {@code start, start+interval, ..., end}, every node to a
 * matrix of {@link EvalSeries} whose points sit on those steps (Prometheus's {@code evaluator}). An
 * instant query is the one-step case. Subqueries and step-invariant subtrees run in nested
 * evaluators over their own steps.
 *
 * <p>Not thread-safe: one evaluator per query (and per nested time range).
 */
final class Evaluator {
  final QueryContext ctx;
  final long start;
  final long end;
  final long interval;
  final int numSteps;

  Evaluator(QueryContext ctx, long start, long end, long interval) {
    this.ctx = ctx;
    this.start = start;
    this.end = end;
    this.interval = interval;
    this.numSteps = end < start ? 0 : (int) ((end - start) / interval) + 1;
  }

  boolean isInstant() {
    return start == end;
  }

  /** Index of step {@code ts} (which must be a step of this evaluator). */
  int stepIndex(long ts) {
    return (int) ((ts - start) / interval);
  }

  List<EvalSeries> eval(Expr e) {
    ctx.checkDeadlineNow();
    if (end < start) {
      return new ArrayList<>();
    }
    if (e instanceof NumberLiteral) {
      return constant(((NumberLiteral) e).value());
    }
    if (e instanceof ParenExpr) {
      return eval(((ParenExpr) e).expr());
    }
    if (e instanceof StepInvariantExpr) {
      return stepInvariant(((StepInvariantExpr) e).expr());
    }
    if (e instanceof VectorSelector) {
      return Selectors.instantVector(this, (VectorSelector) e, false);
    }
    if (e instanceof MatrixSelector) {
      if (!isInstant()) {
        throw new QueryException("cannot do range evaluation of matrix selector");
      }
      return Selectors.rangeVectorAtInstant(this, (MatrixSelector) e);
    }
    if (e instanceof SubqueryExpr) {
      return subquery((SubqueryExpr) e);
    }
    if (e instanceof UnaryExpr) {
      return unary((UnaryExpr) e);
    }
    if (e instanceof BinaryExpr) {
      return BinaryOperations.eval(this, (BinaryExpr) e);
    }
    if (e instanceof Call) {
      return Functions.eval(this, (Call) e);
    }
    if (e instanceof AggregateExpr) {
      return Aggregations.eval(this, (AggregateExpr) e);
    }
    if (e instanceof StringLiteral) {
      throw new QueryException("unexpected string literal outside of a function argument");
    }
    throw new IllegalArgumentException("unhandled expression " + e.getClass().getSimpleName());
  }

  /** A scalar: one label-less series with the value at every step. */
  List<EvalSeries> constant(double value) {
    EvalSeries s = new EvalSeries(Labels.EMPTY, numSteps);
    for (long ts = start; ts <= end; ts += interval) {
      s.add(ts, value);
    }
    ctx.addSamples(s.n);
    List<EvalSeries> out = new ArrayList<>(1);
    out.add(s);
    return out;
  }

  /** The value of a scalar-typed expression at every step (NaN where it has no point). */
  double[] scalarValues(Expr e) {
    return scalarValues(eval(e));
  }

  /** The values of an evaluated scalar at every step (NaN where it has no point). */
  double[] scalarValues(List<EvalSeries> m) {
    double[] out = new double[numSteps];
    java.util.Arrays.fill(out, Double.NaN);
    if (!m.isEmpty()) {
      EvalSeries s = m.get(0);
      for (int i = 0; i < s.n; i++) {
        out[stepIndex(s.t[i])] = s.v[i];
      }
    }
    return out;
  }

  /** Resolves an {@code @} modifier to milliseconds, or returns null when there is none. */
  Long atTime(AtModifier at) {
    if (at == null) {
      return null;
    }
    switch (at.kind()) {
      case START:
        return ctx.queryStart;
      case END:
        return ctx.queryEnd;
      default:
        return at.timestampMs();
    }
  }

  private List<EvalSeries> stepInvariant(Expr inner) {
    if (isInstant() || inner.type() == ValueType.MATRIX || inner.type() == ValueType.STRING) {
      return eval(inner);
    }
    Evaluator once = new Evaluator(ctx, start, start, interval);
    List<EvalSeries> res = once.eval(inner);
    for (EvalSeries s : res) {
      if (s.n != 1) {
        throw new IllegalStateException("step-invariant result with " + s.n + " points");
      }
      double v = s.v[0];
      for (long ts = start + interval; ts <= end; ts += interval) {
        s.add(ts, v);
      }
      ctx.addSamples(s.n - 1);
    }
    return res;
  }

  private List<EvalSeries> subquery(SubqueryExpr sq) {
    long step = sq.stepMs() != 0 ? sq.stepMs() : ctx.options.defaultSubqueryStep().toMillis();
    Long at = atTime(sq.at());
    long evalStart = at != null ? at : start;
    long evalEnd = at != null ? at : end;
    long offset = sq.offsetMs();
    long first = evalStart - offset - sq.rangeMs();
    // Inner steps are aligned to multiples of the step (to the epoch), starting after the left
    // edge of the window: Prometheus 3 excludes a point exactly on that edge.
    long innerStart = step * Math.floorDiv(first, step);
    if (innerStart <= first) {
      innerStart += step;
    }
    Evaluator inner = new Evaluator(ctx, innerStart, evalEnd - offset, step);
    return inner.eval(sq.expr());
  }

  private List<EvalSeries> unary(UnaryExpr u) {
    List<EvalSeries> m = eval(u.expr());
    if (u.op() != BinaryOp.SUB) {
      return m;
    }
    for (EvalSeries s : m) {
      if (!ctx.delayedNameRemoval) {
        s.labels = LabelNames.dropMetadata(s.labels);
      }
      s.dropName = true;
      for (int i = 0; i < s.n; i++) {
        s.v[i] = -s.v[i];
      }
    }
    return ctx.delayedNameRemoval ? m : mergeSameLabels(m);
  }

  /**
   * Merges series that ended up with the same labels (after a name was dropped); two points at one
   * time are Prometheus's "vector cannot contain metrics with the same labelset" error.
   */
  static List<EvalSeries> mergeSameLabels(List<EvalSeries> m) {
    if (m.size() <= 1) {
      return m;
    }
    Map<Labels, EvalSeries> first = new HashMap<>(m.size() * 2);
    boolean dup = false;
    for (EvalSeries s : m) {
      if (first.putIfAbsent(s.labels, s) != null) {
        dup = true;
        break;
      }
    }
    if (!dup) {
      return m;
    }
    Map<Labels, List<EvalSeries>> groups = new LinkedHashMap<>();
    for (EvalSeries s : m) {
      groups.computeIfAbsent(s.labels, k -> new ArrayList<>()).add(s);
    }
    List<EvalSeries> out = new ArrayList<>(groups.size());
    for (List<EvalSeries> g : groups.values()) {
      if (g.size() == 1) {
        out.add(g.get(0));
        continue;
      }
      int total = 0;
      for (EvalSeries s : g) {
        total += s.n;
      }
      long[] ts = new long[total];
      double[] vs = new double[total];
      Integer[] order = new Integer[total];
      int k = 0;
      for (EvalSeries s : g) {
        for (int i = 0; i < s.n; i++) {
          ts[k] = s.t[i];
          vs[k] = s.v[i];
          order[k] = k;
          k++;
        }
      }
      java.util.Arrays.sort(order, (a, b) -> Long.compare(ts[a], ts[b]));
      EvalSeries merged = new EvalSeries(g.get(0).labels, total);
      merged.dropName = g.get(0).dropName;
      for (int i = 0; i < total; i++) {
        long t = ts[order[i]];
        if (merged.n > 0 && merged.t[merged.n - 1] == t) {
          throw new QueryException("vector cannot contain metrics with the same labelset");
        }
        merged.add(t, vs[order[i]]);
      }
      out.add(merged);
    }
    return out;
  }

  /** Throws Prometheus's duplicate-labelset error if two series share labels. */
  static void checkNoDuplicateLabels(List<EvalSeries> m) {
    if (m.size() <= 1) {
      return;
    }
    java.util.Set<Labels> seen = new java.util.HashSet<>(m.size() * 2);
    for (EvalSeries s : m) {
      if (!seen.add(s.labels)) {
        throw new QueryException("vector cannot contain metrics with the same labelset");
      }
    }
  }

  // ---- the per-step loop (Prometheus's rangeEval) ----

  /** Computes one step's output from the inputs' samples at that step. */
  @FunctionalInterface
  interface StepFunction {
    void apply(StepVector[] in, long ts, StepVector out);
  }

  /**
   * Evaluates the argument expressions (null entries are skipped, for string arguments), then calls
   * {@code fn} once per step with each argument's samples at that step, and assembles the outputs
   * into series.
   */
  List<EvalSeries> rangeEval(StepFunction fn, Expr... exprs) {
    List<List<EvalSeries>> inputs = new ArrayList<>(exprs.length);
    int before = ctx.currentSamples;
    for (Expr e : exprs) {
      inputs.add(e == null || e.type() == ValueType.STRING ? List.of() : eval(e));
    }
    return rangeEvalInputs(fn, inputs, before);
  }

  List<EvalSeries> rangeEvalInputs(StepFunction fn, List<List<EvalSeries>> inputs, int before) {
    int nIn = inputs.size();
    StepVector[] vecs = new StepVector[nIn];
    int[][] cursors = new int[nIn][];
    int biggest = 1;
    for (int i = 0; i < nIn; i++) {
      vecs[i] = new StepVector(inputs.get(i).size());
      cursors[i] = new int[inputs.get(i).size()];
      biggest = Math.max(biggest, inputs.get(i).size());
    }
    StepVector out = new StepVector(biggest);
    int temp = ctx.currentSamples;
    Map<Labels, EvalSeries> byLabels = isInstant() ? null : new LinkedHashMap<>();
    for (long ts = start; ts <= end; ts += interval) {
      ctx.checkDeadline();
      ctx.currentSamples = temp;
      for (int i = 0; i < nIn; i++) {
        gather(inputs.get(i), cursors[i], ts, vecs[i]);
        ctx.addSamples(vecs[i].n);
      }
      out.clear();
      fn.apply(vecs, ts, out);
      ctx.addSamples(out.n);
      temp += out.n;
      if (isInstant()) {
        List<EvalSeries> res = new ArrayList<>(out.n);
        for (int i = 0; i < out.n; i++) {
          EvalSeries s = new EvalSeries(out.labels[i], 1);
          s.add(ts, out.v[i]);
          s.dropName = out.drop[i];
          res.add(s);
        }
        if (!ctx.delayedNameRemoval) {
          checkNoDuplicateLabels(res);
        }
        ctx.currentSamples = before + res.size();
        return res;
      }
      for (int i = 0; i < out.n; i++) {
        EvalSeries s = byLabels.get(out.labels[i]);
        if (s == null) {
          s = new EvalSeries(out.labels[i], Math.min(numSteps, 64));
          s.dropName = out.drop[i];
          byLabels.put(out.labels[i], s);
        } else if (s.n > 0 && s.t[s.n - 1] == ts) {
          throw new QueryException("vector cannot contain metrics with the same labelset");
        }
        s.add(ts, out.v[i]);
      }
    }
    List<EvalSeries> res =
        byLabels == null ? new ArrayList<>() : new ArrayList<>(byLabels.values());
    int total = 0;
    for (EvalSeries s : res) {
      total += s.n;
    }
    ctx.currentSamples = before + total;
    return res;
  }

  /** Fills {@code into} with the points of {@code m} at {@code ts}, advancing the cursors. */
  static void gather(List<EvalSeries> m, int[] cursor, long ts, StepVector into) {
    into.clear();
    for (int i = 0; i < m.size(); i++) {
      EvalSeries s = m.get(i);
      int c = cursor[i];
      if (c < s.n && s.t[c] == ts) {
        into.add(s.labels, s.v[c], s.dropName, i);
        cursor[i] = c + 1;
      }
    }
  }
}
