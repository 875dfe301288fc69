package dev.infermon.promql.engine;

import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.AtModifier;
import dev.infermon.promql.parser.BinaryExpr;
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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a parsed expression before evaluation, as Prometheus's {@code PreprocessExpr}: resolves
 * {@code @ start()} and {@code @ end()} to times, removes parentheses around function and
 * aggregation arguments, and wraps the largest step-invariant subtrees (those pinned by {@code @})
 * in {@link StepInvariantExpr} so a range query evaluates them once. Stateless.
 */
final class Preprocessor {
  private Preprocessor() {}

  static Expr preprocess(Expr e, long start, long end) {
    Result r = walk(e, start, end);
    return r.shouldWrap ? new StepInvariantExpr(r.expr) : r.expr;
  }

  private static final class Result {
    final Expr expr;
    final boolean invariant;
    final boolean shouldWrap;

    Result(Expr expr, boolean invariant, boolean shouldWrap) {
      this.expr = expr;
      this.invariant = invariant;
      this.shouldWrap = shouldWrap;
    }
  }

  private static AtModifier resolve(AtModifier at, long start, long end) {
    if (at == null) {
      return null;
    }
    switch (at.kind()) {
      case START:
        return AtModifier.at(start);
      case END:
        return AtModifier.at(end);
      default:
        return at;
    }
  }

  private static Expr unwrapParens(Expr e) {
    while (e instanceof ParenExpr) {
      e = ((ParenExpr) e).expr();
    }
    return e;
  }

  /** A chain {@code a + b + c + ...} is walked down its left side with a loop. */
  private static Result binaryChain(BinaryExpr top, long start, long end) {
    ArrayDeque<BinaryExpr> spine = new ArrayDeque<>();
    Expr e = top;
    while (e instanceof BinaryExpr) {
      spine.push((BinaryExpr) e);
      e = ((BinaryExpr) e).lhs();
    }
    Result l = walk(e, start, end);
    while (!spine.isEmpty()) {
      BinaryExpr b = spine.pop();
      Result r = walk(b.rhs(), start, end);
      if (l.invariant && r.invariant) {
        l =
            new Result(
                new BinaryExpr(b.op(), l.expr, r.expr, b.matching(), b.returnBool()), true, true);
        continue;
      }
      Expr lhs = l.shouldWrap ? new StepInvariantExpr(l.expr) : l.expr;
      Expr rhs = r.shouldWrap ? new StepInvariantExpr(r.expr) : r.expr;
      l = new Result(new BinaryExpr(b.op(), lhs, rhs, b.matching(), b.returnBool()), false, false);
    }
    return l;
  }

  private static Result walk(Expr e, long start, long end) {
    if (e instanceof VectorSelector) {
      VectorSelector vs = (VectorSelector) e;
      AtModifier at = resolve(vs.at(), start, end);
      VectorSelector out =
          at == vs.at() ? vs : new VectorSelector(vs.name(), vs.matchers(), vs.offsetMs(), at);
      return new Result(out, at != null, at != null);
    }
    if (e instanceof AggregateExpr) {
      AggregateExpr a = (AggregateExpr) e;
      Expr param = a.param() == null ? null : unwrapParens(a.param());
      Result inner = walk(unwrapParens(a.expr()), start, end);
      return new Result(
          new AggregateExpr(a.op(), inner.expr, param, a.grouping(), a.without()),
          inner.invariant,
          inner.shouldWrap);
    }
    if (e instanceof BinaryExpr) {
      return binaryChain((BinaryExpr) e, start, end);
    }
    if (e instanceof Call) {
      Call c = (Call) e;
      boolean invariant = !Functions.AT_MODIFIER_UNSAFE.contains(c.function().name());
      List<Result> args = new ArrayList<>(c.args().size());
      for (Expr a : c.args()) {
        Result r = walk(unwrapParens(a), start, end);
        args.add(r);
        invariant &= r.invariant;
      }
      List<Expr> newArgs = new ArrayList<>(args.size());
      for (Result r : args) {
        // Range-vector arguments are read by the function itself and never wrapped.
        boolean wrap = !invariant && r.shouldWrap && r.expr.type() != ValueType.MATRIX;
        newArgs.add(wrap ? new StepInvariantExpr(r.expr) : r.expr);
      }
      Call out = new Call(c.function(), newArgs);
      return invariant ? new Result(out, true, true) : new Result(out, false, false);
    }
    if (e instanceof MatrixSelector) {
      MatrixSelector m = (MatrixSelector) e;
      Result inner = walk(m.selector(), start, end);
      return new Result(
          new MatrixSelector((VectorSelector) inner.expr, m.rangeMs()), inner.invariant, false);
    }
    if (e instanceof SubqueryExpr) {
      SubqueryExpr s = (SubqueryExpr) e;
      Result inner = walk(s.expr(), start, end);
      Expr innerExpr = inner.invariant ? new StepInvariantExpr(inner.expr) : inner.expr;
      AtModifier at = resolve(s.at(), start, end);
      return new Result(
          new SubqueryExpr(innerExpr, s.rangeMs(), s.stepMs(), s.offsetMs(), at),
          at != null,
          at != null);
    }
    if (e instanceof ParenExpr) {
      Result inner = walk(((ParenExpr) e).expr(), start, end);
      return new Result(new ParenExpr(inner.expr), inner.invariant, inner.shouldWrap);
    }
    if (e instanceof UnaryExpr) {
      UnaryExpr u = (UnaryExpr) e;
      Result inner = walk(u.expr(), start, end);
      return new Result(new UnaryExpr(u.op(), inner.expr), inner.invariant, inner.shouldWrap);
    }
    if (e instanceof StringLiteral || e instanceof NumberLiteral) {
      return new Result(e, true, false);
    }
    if (e instanceof StepInvariantExpr) {
      return new Result(e, true, false);
    }
    throw new IllegalArgumentException("unhandled expression " + e.getClass().getSimpleName());
  }
}
