package dev.infermon.promql.value;

import java.util.List;

/**
 * An instant vector. The order is the order the query produced ({@code sort}, {@code topk} ...);
 * otherwise unspecified.
 */
public record Vector(List<Sample> samples) implements Value {
  public Vector {
    samples = List.copyOf(samples);
  }

  @Override
  public String resultType() {
    return "vector";
  }
}
