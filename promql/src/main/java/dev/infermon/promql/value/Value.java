package dev.infermon.promql.value;

/** The result of a PromQL query: a scalar, a string, an instant vector or a range matrix. */
public sealed interface Value permits Scalar, StringValue, Vector, Matrix {
  /** The type name used by the Prometheus HTTP API ({@code resultType}). */
  String resultType();
}
