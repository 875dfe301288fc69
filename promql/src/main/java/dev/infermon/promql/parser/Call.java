package dev.infermon.promql.parser;

import java.util.List;

/** A function call, {@code rate(x[5m])}. */
public record Call(Function function, List<Expr> args) implements Expr {
  public Call {
    args = List.copyOf(args);
  }

  @Override
  public ValueType type() {
    return function.returnType();
  }
}
