package dev.infermon.promql.parser;

import java.util.List;

/**
 * A PromQL function's signature, as in Prometheus's {@code parser/functions.go}.
 *
 * @param name the function name
 * @param argTypes the declared argument types
 * @param variadic 0 for a fixed arity; &gt;0 for that many optional trailing arguments (repeating
 *     the last type); -1 for unbounded
 * @param returnType the type of the result
 * @param experimental whether Prometheus gates it behind a feature flag
 */
public record Function(
    String name,
    List<ValueType> argTypes,
    int variadic,
    ValueType returnType,
    boolean experimental) {
  public Function {
    argTypes = List.copyOf(argTypes);
  }
}
