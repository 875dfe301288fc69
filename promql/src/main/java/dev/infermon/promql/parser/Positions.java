package dev.infermon.promql.parser;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Where each node of one parse came from. The AST records carry no positions (so that equal queries
 * give equal trees); type errors found after parsing still need them, so the parser records them
 * here, keyed by node identity. Also keeps what the records normalise away but the type checker
 * must see: a binary expression's matching as written, and where its operator is.
 *
 * <p>Not thread-safe; lives for one parse.
 */
final class Positions {
  private final Map<Expr, int[]> ranges = new IdentityHashMap<>();
  private final Map<BinaryExpr, Integer> operators = new IdentityHashMap<>();
  private final Map<BinaryExpr, VectorMatching> matchings = new IdentityHashMap<>();
  private final Map<Expr, ValueType> types = new IdentityHashMap<>();

  <T extends Expr> T put(T node, int start, int end) {
    ranges.put(node, new int[] {start, end});
    return node;
  }

  /**
   * The node's type, remembered: {@link Expr#type()} of a binary expression asks both operands, so
   * asking it at every level of a long chain such as {@code a - b - c - ...} would be quadratic.
   */
  ValueType type(Expr node) {
    ValueType t = types.get(node);
    if (t != null) {
      return t;
    }
    if (node instanceof BinaryExpr) {
      BinaryExpr b = (BinaryExpr) node;
      t =
          type(b.lhs()) == ValueType.SCALAR && type(b.rhs()) == ValueType.SCALAR
              ? ValueType.SCALAR
              : ValueType.VECTOR;
    } else if (node instanceof ParenExpr) {
      t = type(((ParenExpr) node).expr());
    } else if (node instanceof UnaryExpr) {
      t = type(((UnaryExpr) node).expr());
    } else {
      t = node.type();
    }
    types.put(node, t);
    return t;
  }

  void putBinary(BinaryExpr node, int operatorPos, VectorMatching asWritten) {
    operators.put(node, operatorPos);
    matchings.put(node, asWritten);
  }

  int start(Expr node) {
    int[] r = ranges.get(node);
    return r == null ? 0 : r[0];
  }

  int end(Expr node) {
    int[] r = ranges.get(node);
    return r == null ? 0 : r[1];
  }

  int operator(BinaryExpr node) {
    Integer p = operators.get(node);
    return p == null ? start(node) : p;
  }

  /** The matching as written (never null), before set operators become many-to-many. */
  VectorMatching matching(BinaryExpr node) {
    VectorMatching m = matchings.get(node);
    return m != null
        ? m
        : node.matching() != null ? node.matching() : VectorMatching.defaultFor(node.op());
  }
}
