package dev.infermon.promql.value;

import java.util.List;

/** A range result: series sorted by labels, each with points in time order. */
public record Matrix(List<TimeSeries> series) implements Value {
  public Matrix {
    series = List.copyOf(series);
  }

  @Override
  public String resultType() {
    return "matrix";
  }
}
