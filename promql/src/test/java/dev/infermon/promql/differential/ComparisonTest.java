package dev.infermon.promql.differential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The comparator and the readers of Prometheus's answers, without a Prometheus. */
class ComparisonTest {
  @ParameterizedTest(name = "{0} ~ {1}: {2}")
  @CsvSource({
    "1.0, 1.0, true",
    "1.0, 1.0000001, true",
    "1.0, 1.00001, false",
    "NaN, NaN, true",
    "NaN, 1, false",
    "Infinity, Infinity, true",
    "Infinity, -Infinity, false",
    "0, 1e-300, false",
    "0, 0, true",
    "-0.0, 0, true",
    "1e300, 1.0000000001e300, true",
  })
  void almostEqualIsPrometheusTolerance(double a, double b, boolean equal) {
    assertThat(Comparison.almostEqual(a, b, Comparison.EPSILON)).isEqualTo(equal);
  }

  @Test
  void readsPrometheusMatrixWithSpecialValues() {
    String body =
        "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":"
            + "{\"__name__\":\"x\",\"pod\":\"a\\\"b\"},\"values\":[[1704067217,\"NaN\"],"
            + "[1704067277.5,\"+Inf\"],[1704067337,\"-1.5e-7\"]]}]}}";
    Outcome o = Outcome.ofPrometheus(body);
    NavigableMap<Long, Double> points = o.series().get(Labels.of("__name__", "x", "pod", "a\"b"));
    assertThat(points).containsOnlyKeys(1_704_067_217_000L, 1_704_067_277_500L, 1_704_067_337_000L);
    assertThat(points.get(1_704_067_217_000L)).isNaN();
    assertThat(points.get(1_704_067_277_500L)).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(points.get(1_704_067_337_000L)).isEqualTo(-1.5e-7);
  }

  @Test
  void readsPrometheusError() {
    Outcome o =
        Outcome.ofPrometheus(
            "{\"status\":\"error\",\"errorType\":\"execution\",\"error\":\"found duplicate\"}");
    assertThat(o.failed()).isTrue();
    assertThat(o.error()).isEqualTo("execution: found duplicate");
  }

  @Test
  void reportsTheFirstDifference() {
    Labels l = Labels.of("pod", "a");
    Outcome p = Outcome.of(Map.of(l, new TreeMap<>(Map.of(1L, 1.0, 2L, 2.0))));
    assertThat(Comparison.difference(p, p)).isNull();
    Outcome valueOff = Outcome.of(Map.of(l, new TreeMap<>(Map.of(1L, 1.0, 2L, 2.1))));
    assertThat(Comparison.difference(p, valueOff)).contains("@2").contains("2.1");
    Outcome stepMissing = Outcome.of(Map.of(l, new TreeMap<>(Map.of(1L, 1.0))));
    assertThat(Comparison.difference(p, stepMissing)).contains("steps differ");
    Outcome otherSeries = Outcome.of(Map.of(Labels.of("pod", "b"), new TreeMap<>(Map.of(1L, 1.0))));
    assertThat(Comparison.difference(p, otherSeries)).contains("series differ");
    assertThat(Comparison.difference(p, Outcome.error("boom"))).contains("infermon failed");
    assertThat(Comparison.difference(Outcome.error("a"), Outcome.error("b"))).isNull();
  }

  @Test
  void openMetricsTimestampsRoundTripThroughPrometheusConversion() {
    // Prometheus reads "1704067203.7" as int64(1704067203.7 * 1000); the data set uses that value.
    for (int k = 0; k < DataSet.SCRAPES; k++) {
      long ms = DataSet.scrapeTime(k);
      assertThat(Math.abs(ms - (DataSet.T0 + DataSet.SCRAPE_OFFSET_MS + k * DataSet.SCRAPE_MS)))
          .isLessThanOrEqualTo(1);
      assertThat(ms % 1000).isNotZero(); // never on a whole second, so never on a window edge
    }
  }
}
