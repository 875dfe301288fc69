package dev.infermon.promql.parser;

import java.util.List;

/**
 * How the two sides of a vector/vector binary operation are matched.
 *
 * @param card the cardinality ({@code group_left} is many-to-one, {@code group_right} one-to-many;
 *     set operators are many-to-many)
 * @param matchingLabels the labels of {@code on(...)} or {@code ignoring(...)}
 * @param on true for {@code on}, false for {@code ignoring} (or neither written)
 * @param include extra labels of {@code group_left(...)} / {@code group_right(...)}
 */
public record VectorMatching(
    Cardinality card, List<String> matchingLabels, boolean on, List<String> include) {
  /** Matching cardinalities. */
  public enum Cardinality {
    ONE_TO_ONE,
    MANY_TO_ONE,
    ONE_TO_MANY,
    MANY_TO_MANY
  }

  public VectorMatching {
    matchingLabels = List.copyOf(matchingLabels);
    include = List.copyOf(include);
  }

  /** Default matching for an operator: one-to-one, or many-to-many for set operators. */
  public static VectorMatching defaultFor(BinaryOp op) {
    return new VectorMatching(
        op.isSetOperator() ? Cardinality.MANY_TO_MANY : Cardinality.ONE_TO_ONE,
        List.of(),
        false,
        List.of());
  }
}
