package dev.infermon.promql.parser;

import dev.infermon.model.labels.Matcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Short constructors for expected trees in test tables. */
final class Ast {
  private Ast() {}

  static NumberLiteral num(double v) {
    return new NumberLiteral(v);
  }

  static StringLiteral str(String s) {
    return new StringLiteral(s);
  }

  /** A selector with a name: the given matchers (in canonical order), then the name's matcher. */
  static VectorSelector vs(String name, Matcher... matchers) {
    List<Matcher> ms = new ArrayList<>(Arrays.asList(matchers));
    ms.add(Matcher.metricName(name));
    return new VectorSelector(name, ms, 0, null);
  }

  /** A selector without a name, {@code {...}}. */
  static VectorSelector braces(Matcher... matchers) {
    return new VectorSelector(null, List.of(matchers), 0, null);
  }

  static VectorSelector offset(VectorSelector v, long ms) {
    return new VectorSelector(v.name(), v.matchers(), ms, v.at());
  }

  static VectorSelector at(VectorSelector v, AtModifier at) {
    return new VectorSelector(v.name(), v.matchers(), v.offsetMs(), at);
  }

  static MatrixSelector range(VectorSelector v, long ms) {
    return new MatrixSelector(v, ms);
  }

  static SubqueryExpr subquery(Expr e, long rangeMs, long stepMs) {
    return new SubqueryExpr(e, rangeMs, stepMs, 0, null);
  }

  static BinaryExpr bin(BinaryOp op, Expr l, Expr r) {
    boolean vectors = l.type() == ValueType.VECTOR && r.type() == ValueType.VECTOR;
    return new BinaryExpr(op, l, r, vectors ? VectorMatching.defaultFor(op) : null, false);
  }

  static BinaryExpr cmpBool(BinaryOp op, Expr l, Expr r) {
    boolean vectors = l.type() == ValueType.VECTOR && r.type() == ValueType.VECTOR;
    return new BinaryExpr(op, l, r, vectors ? VectorMatching.defaultFor(op) : null, true);
  }

  static BinaryExpr bin(BinaryOp op, Expr l, Expr r, VectorMatching m) {
    return new BinaryExpr(op, l, r, m, false);
  }

  static VectorMatching on(VectorMatching.Cardinality card, List<String> labels, String... inc) {
    return new VectorMatching(card, labels, true, List.of(inc));
  }

  static VectorMatching ignoring(
      VectorMatching.Cardinality card, List<String> labels, String... inc) {
    return new VectorMatching(card, labels, false, List.of(inc));
  }

  static Call call(String name, Expr... args) {
    return new Call(Functions.get(name), List.of(args));
  }

  static AggregateExpr agg(AggregateOp op, Expr e) {
    return new AggregateExpr(op, e, null, List.of(), false);
  }

  static AggregateExpr by(AggregateOp op, Expr e, String... labels) {
    return new AggregateExpr(op, e, null, List.of(labels), false);
  }

  static AggregateExpr without(AggregateOp op, Expr e, String... labels) {
    return new AggregateExpr(op, e, null, List.of(labels), true);
  }

  static AggregateExpr param(AggregateOp op, Expr p, Expr e) {
    return new AggregateExpr(op, e, p, List.of(), false);
  }

  static ParenExpr paren(Expr e) {
    return new ParenExpr(e);
  }

  static UnaryExpr neg(Expr e) {
    return new UnaryExpr(BinaryOp.SUB, e);
  }
}
