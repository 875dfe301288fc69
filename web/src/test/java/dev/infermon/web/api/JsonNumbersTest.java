package dev.infermon.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sample values and timestamps as Prometheus 2.42 printed them for the same queries (see
 * docs/http-api.md); the float formatting underneath is model's {@code GoFloatTest}.
 */
class JsonNumbersTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "6.000000000000001e-8 | 6.000000000000001e-08",
        "1e-6                 | 0.000001",
        "1e21                 | 1e+21",
        "-2.5e22              | -2.5e+22",
        "123.25               | 123.25",
        "0                    | 0",
        "NaN                  | NaN",
      })
  void pointsUseExponentsForTinyAndHugeValues(double v, String want) {
    // Prometheus 2.42 answered "6.000000000000001e-08" for conf_gauge * 1e-9 (conformance test).
    assertThat(JsonNumbers.point(v)).isEqualTo(want);
  }

  @ParameterizedTest(name = "{0} ms -> {1}")
  @CsvSource({
    "1000, 1",
    "1100, 1.100",
    "2500, 2.500",
    "1001, 1.001",
    "1050, 1.050",
    "-1500, -1.500",
    "0, 0"
  })
  void timestampsKeepThreeDecimals(long ms, String want) {
    assertThat(JsonNumbers.timestamp(ms)).isEqualTo(want);
  }
}
