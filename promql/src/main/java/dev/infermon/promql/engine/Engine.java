package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryCanceledException;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.QueryTimeoutException;
import dev.infermon.promql.TooManyPointsException;
import dev.infermon.promql.TooManySamplesException;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Children;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.Nesting;
import dev.infermon.promql.parser.StringLiteral;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.ValueType;
import dev.infermon.promql.value.Annotation;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.StringValue;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Value;
import dev.infermon.promql.value.Vector;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Queryable;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Evaluates PromQL expressions against a {@link Queryable}, with Prometheus 3's semantics for float
 * samples.
 *
 * <p>Threading: an engine is immutable and thread-safe; each query runs on the caller's thread with
 * its own querier, which is closed before the method returns, except a query nested deeper than
 * {@link Nesting} allows on any thread: it runs on a thread of its own with a stack sized to it,
 * and the caller waits. A query can be canceled from another thread through the {@link
 * AtomicBoolean} passed in.
 *
 * <p>Errors: {@link IllegalArgumentException} for a malformed request (negative step, end before
 * start, a range query of a non-vector expression, a tree nested deeper than {@link
 * Nesting#MAX_DEPTH}); {@link TooManyPointsException} beyond 11,000 steps; {@link
 * QueryTimeoutException}, {@link QueryCanceledException}, {@link TooManySamplesException}, or
 * {@link QueryException} with Prometheus's message when evaluation fails. Storage failures
 * propagate as {@link dev.infermon.storage.StorageException}.
 */
public final class Engine {
  /** Prometheus's limit on points per series in a range query. */
  public static final int MAX_POINTS_PER_SERIES = 11_000;

  private final EngineOptions options;

  public Engine(EngineOptions options) {
    if (options == null) {
      throw new IllegalArgumentException("options must not be null");
    }
    this.options = options;
  }

  public EngineOptions options() {
    return options;
  }

  /** Evaluates {@code expr} at one time (milliseconds). */
  public QueryResult instantQuery(Queryable storage, Expr expr, long timeMs) {
    return instantQuery(storage, expr, timeMs, new AtomicBoolean());
  }

  /** As {@link #instantQuery(Queryable, Expr, long)}, cancelable by setting {@code canceled}. */
  public QueryResult instantQuery(
      Queryable storage, Expr expr, long timeMs, AtomicBoolean canceled) {
    return instantQuery(storage, expr, timeMs, canceled, options.timeout());
  }

  /**
   * As {@link #instantQuery(Queryable, Expr, long, AtomicBoolean)}, in at most {@code timeout} or
   * the engine's own timeout, whichever is shorter.
   */
  public QueryResult instantQuery(
      Queryable storage, Expr expr, long timeMs, AtomicBoolean canceled, Duration timeout) {
    long deadline = deadline(timeout);
    return Nesting.call(depth(expr), () -> instant(storage, expr, timeMs, canceled, deadline));
  }

  private QueryResult instant(
      Queryable storage, Expr expr, long timeMs, AtomicBoolean canceled, long deadline) {
    Expr prepared = Preprocessor.preprocess(expr, timeMs, timeMs);
    try (Querier querier = storage.querier()) {
      QueryContext ctx = new QueryContext(querier, options, timeMs, timeMs, deadline, canceled);
      if (expr.type() == ValueType.STRING) {
        return new QueryResult(
            new StringValue(timeMs, stringValue(prepared)), ctx.annotations.build());
      }
      Evaluator ev = new Evaluator(ctx, timeMs, timeMs, 1);
      List<EvalSeries> res = finish(ctx, ev.eval(prepared));
      Value value;
      switch (expr.type()) {
        case SCALAR:
          value = new Scalar(timeMs, res.isEmpty() ? Double.NaN : res.get(0).v[0]);
          break;
        case MATRIX:
          value = toMatrix(res);
          break;
        default:
          List<Sample> samples = new ArrayList<>(res.size());
          for (EvalSeries s : res) {
            samples.add(new Sample(s.labels, timeMs, s.v[0]));
          }
          value = new Vector(samples);
      }
      return new QueryResult(value, ctx.annotations.build());
    }
  }

  /**
   * Evaluates {@code expr} at {@code start, start+step, ..., end} (milliseconds). The result is a
   * matrix sorted by labels.
   *
   * @throws IllegalArgumentException for a non-positive step, end before start, or an expression
   *     that is not an instant vector or scalar
   */
  public QueryResult rangeQuery(Queryable storage, Expr expr, long start, long end, long step) {
    return rangeQuery(storage, expr, start, end, step, new AtomicBoolean());
  }

  /** As {@link #rangeQuery(Queryable, Expr, long, long, long)}, cancelable. */
  public QueryResult rangeQuery(
      Queryable storage, Expr expr, long start, long end, long step, AtomicBoolean canceled) {
    return rangeQuery(storage, expr, start, end, step, canceled, options.timeout());
  }

  /**
   * As {@link #rangeQuery(Queryable, Expr, long, long, long, AtomicBoolean)}, in at most {@code
   * timeout} or the engine's own timeout, whichever is shorter.
   */
  public QueryResult rangeQuery(
      Queryable storage,
      Expr expr,
      long start,
      long end,
      long step,
      AtomicBoolean canceled,
      Duration timeout) {
    if (step <= 0) {
      throw new IllegalArgumentException(
          "zero or negative query resolution step widths are not accepted. Try a positive"
              + " integer, got "
              + step);
    }
    if (end < start) {
      throw new IllegalArgumentException(
          "end timestamp must not be before start time: " + end + " < " + start);
    }
    // Prometheus refuses only when (end - start) / step exceeds the limit, so a range of exactly
    // 11,000 steps (11,001 points) is accepted.
    if ((end - start) / step > MAX_POINTS_PER_SERIES) {
      throw new TooManyPointsException();
    }
    if (expr.type() != ValueType.VECTOR && expr.type() != ValueType.SCALAR) {
      throw new IllegalArgumentException(
          "invalid expression type \""
              + expr.type().documentedName()
              + "\" for range query, must be Scalar or instant Vector");
    }
    long deadline = deadline(timeout);
    return Nesting.call(
        depth(expr), () -> range(storage, expr, start, end, step, canceled, deadline));
  }

  private QueryResult range(
      Queryable storage,
      Expr expr,
      long start,
      long end,
      long step,
      AtomicBoolean canceled,
      long deadline) {
    Expr prepared = Preprocessor.preprocess(expr, start, end);
    try (Querier querier = storage.querier()) {
      QueryContext ctx = new QueryContext(querier, options, start, end, deadline, canceled);
      ctx.queryStep = step;
      if (start != end && containsSort(expr)) {
        ctx.annotations.add(
            Annotation.warning(
                "sort is ineffective for range queries since results are always ordered by"
                    + " labels"));
      }
      Evaluator ev = new Evaluator(ctx, start, end, step);
      List<EvalSeries> res = finish(ctx, ev.eval(prepared));
      return new QueryResult(toMatrix(res), ctx.annotations.build());
    }
  }

  private long deadline(Duration timeout) {
    Duration d = timeout.compareTo(options.timeout()) < 0 ? timeout : options.timeout();
    return System.nanoTime() + d.toNanos();
  }

  /**
   * The levels evaluation recurses for {@code expr}.
   *
   * @throws IllegalArgumentException for a tree deeper than {@link Nesting#MAX_DEPTH}
   */
  private static int depth(Expr expr) {
    int d = Nesting.depth(expr);
    if (d > Nesting.MAX_DEPTH) {
      throw new IllegalArgumentException(
          "expression nested too deeply (" + d + " levels, at most " + Nesting.MAX_DEPTH + ")");
    }
    return d;
  }

  /** Applies delayed name removal and checks for collisions it creates. */
  private static List<EvalSeries> finish(QueryContext ctx, List<EvalSeries> res) {
    ctx.checkDeadlineNow();
    if (!ctx.delayedNameRemoval) {
      return res;
    }
    for (EvalSeries s : res) {
      if (s.dropName) {
        s.labels = LabelNames.dropMetadata(s.labels);
      }
    }
    return Evaluator.mergeSameLabels(res);
  }

  private static String stringValue(Expr e) {
    return ((StringLiteral) Functions.unwrap(e)).value();
  }

  private static Matrix toMatrix(List<EvalSeries> res) {
    List<TimeSeries> out = new ArrayList<>(res.size());
    for (EvalSeries s : res) {
      if (s.n > 0) {
        out.add(TimeSeries.wrap(s.labels, s.t, s.v, s.n));
      }
    }
    out.sort(Comparator.comparing(TimeSeries::labels, Labels::compareTo));
    return new Matrix(out);
  }

  /** Whether a sorting function appears outside subqueries. Walks with a stack of its own. */
  private static boolean containsSort(Expr root) {
    ArrayDeque<Expr> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      Expr e = todo.pop();
      if (e instanceof Call && Functions.SORTING.contains(((Call) e).function().name())) {
        return true;
      }
      if (!(e instanceof SubqueryExpr)) {
        Children.of(e).forEach(todo::push);
      }
    }
    return false;
  }
}
