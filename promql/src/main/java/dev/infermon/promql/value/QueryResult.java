package dev.infermon.promql.value;

import java.util.Objects;

/**
 * A query's value and the annotations found while computing it.
 *
 * @param value a scalar, string, vector (instant query) or matrix (range query, or an instant query
 *     of a range-vector expression)
 * @param annotations warnings and infos, possibly empty
 */
public record QueryResult(Value value, Annotations annotations) {
  public QueryResult {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(annotations, "annotations");
  }
}
