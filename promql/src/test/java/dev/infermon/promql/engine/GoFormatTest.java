package dev.infermon.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Float text as Go formats it, where labels and messages depend on it. */
class GoFormatTest {
  @ParameterizedTest
  @CsvSource({"1, 1", "0.25, 0.25", "100, 100", "1e21, 1000000000000000000000", "-0.5, -0.5"})
  void shortestNeverUsesExponent(double in, String out) {
    assertThat(GoFormat.shortest(in)).isEqualTo(out);
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "1.5, 1.5", "1e21, 1e+21", "0.00001, 1e-05", "-2, -2"})
  void percentGMatchesGo(double in, String out) {
    assertThat(GoFormat.g(in)).isEqualTo(out);
  }

  @ParameterizedTest
  @CsvSource({"1, 1.0", "0.5, 0.5", "0, 0.0"})
  void openMetricsAddsDecimalPoint(double in, String out) {
    assertThat(GoFormat.openMetrics(in)).isEqualTo(out);
  }
}
