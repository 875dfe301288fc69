package dev.infermon.promql.value;

import java.util.Objects;

/**
 * A string result (a query that is a string literal).
 *
 * @param timestampMs the evaluation time
 * @param value the string
 */
public record StringValue(long timestampMs, String value) implements Value {
  public StringValue {
    Objects.requireNonNull(value, "value");
  }

  @Override
  public String resultType() {
    return "string";
  }
}
