package dev.infermon.remote.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Value;
import dev.infermon.promql.value.Vector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares query results from different engines: same series (by labels), same timestamps, values
 * equal within a relative 1e-9 (aggregations may add in another order), NaN equal to NaN.
 */
final class ResultComparison {
  private ResultComparison() {}

  /** label set → "t=v" points, the form both sides are reduced to. */
  static Map<String, List<String>> points(Value v, boolean withoutName) {
    Map<String, List<String>> out = new TreeMap<>();
    if (v instanceof Vector) {
      for (Sample s : ((Vector) v).samples()) {
        out.computeIfAbsent(key(s.labels(), withoutName), k -> new ArrayList<>())
            .add(s.timestampMs() + "=" + round(s.value()));
      }
    } else if (v instanceof Matrix) {
      for (TimeSeries s : ((Matrix) v).series()) {
        List<String> pts =
            out.computeIfAbsent(key(s.labels(), withoutName), k -> new ArrayList<>());
        for (int i = 0; i < s.size(); i++) {
          pts.add(s.timestampAt(i) + "=" + round(s.valueAt(i)));
        }
      }
    } else if (v instanceof Scalar) {
      Scalar s = (Scalar) v;
      out.put("scalar", List.of(s.timestampMs() + "=" + round(s.value())));
    } else {
      throw new AssertionError("unexpected result " + v);
    }
    return out;
  }

  /** Nine significant digits: differences of summation order vanish, real differences do not. */
  private static String round(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v) || v == 0) {
      return Double.toString(v);
    }
    return new java.math.BigDecimal(v)
        .round(new java.math.MathContext(9))
        .stripTrailingZeros()
        .toPlainString();
  }

  private static String key(dev.infermon.model.labels.Labels l, boolean withoutName) {
    return (withoutName ? l.withoutMetricName() : l).toString();
  }

  static void assertSame(String what, Value expected, Value actual) {
    assertThat(points(actual, false)).as(what).isEqualTo(points(expected, false));
  }

  /**
   * As {@link #assertSame} but blind to {@code __name__}: MetricsQL keeps the metric name on
   * rollups such as {@code avg_over_time}, where PromQL drops it.
   */
  static void assertSameIgnoringName(String what, Value expected, Value actual) {
    assertThat(points(actual, true)).as(what).isEqualTo(points(expected, true));
  }
}
