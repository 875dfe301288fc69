package dev.infermon.promql.parser;

import java.util.List;

/**
 * An aggregation, {@code sum by (job) (x)} or {@code topk(3, x)}.
 *
 * @param param the parameter of {@code topk}, {@code quantile}, ...; null for the others
 * @param grouping the labels of {@code by(...)} or {@code without(...)}
 * @param without true for {@code without}
 */
public record AggregateExpr(
    AggregateOp op, Expr expr, Expr param, List<String> grouping, boolean without) implements Expr {
  public AggregateExpr {
    grouping = List.copyOf(grouping);
  }

  @Override
  public ValueType type() {
    return ValueType.VECTOR;
  }
}
