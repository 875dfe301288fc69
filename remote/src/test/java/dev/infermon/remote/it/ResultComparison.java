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
  static Map<String, List<String>> points(Value v) {
    Map<String, List<String>> out = new TreeMap<>();
    if (v instanceof Vector) {
      for (Sample s : ((Vector) v).samples()) {
        out.computeIfAbsent(s.labels().toString(), k -> new ArrayList<>())
            .add(s.timestampMs() + "=" + round(s.value()));
      }
    } else if (v instanceof Matrix) {
      for (TimeSeries s : ((Matrix) v).series()) {
        List<String> pts = out.computeIfAbsent(s.labels().toString(), k -> new ArrayList<>());
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

  static void assertSame(String what, Value expected, Value actual) {
    assertThat(points(actual)).as(what).isEqualTo(points(expected));
  }
}
