package dev.infermon.promql.parser;

/**
 * A subquery, {@code expr[range:step] offset o @ t}.
 *
 * @param stepMs the resolution in milliseconds; 0 when omitted (the engine's default interval)
 */
public record SubqueryExpr(Expr expr, long rangeMs, long stepMs, long offsetMs, AtModifier at)
    implements Expr {
  @Override
  public ValueType type() {
    return ValueType.MATRIX;
  }
}
