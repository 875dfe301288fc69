package dev.infermon.simulator.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * prometheus_client's {@code floatToGoString}; the expected column was printed by Python 3 with the
 * same function (and matches the values in the captures).
 */
class PyFloatTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0.0, 0.0",
    "1.0, 1.0",
    "26.0, 26.0",
    "500000.0, 500000.0",
    "1000000.0, 1e+06",
    "3241216.0, 3.241216e+06",
    "1788859833.25, 1.78885983325e+09",
    "1.7624384230434499e9, 1.7624384230434499e+09",
    "10777853952.0, 1.0777853952e+010",
    "2560.0, 2560.0",
    "0.001, 0.001",
    "0.0001, 0.0001",
    "0.00001, 1e-05",
    "0.30457592010498047, 0.30457592010498047",
    "417.90156173706055, 417.90156173706055",
    "0.006842203612904996, 0.006842203612904996",
    "-3.5, -3.5",
    "1e16, 1e+16",
    "1.5e16, 1.5e+16",
    "1e22, 1e+22",
    "123456789012345678.0, 1.2345678901234568e+17",
    "0.30000000000000004, 0.30000000000000004",
    "4.9e-324, 5e-324",
    "Infinity, +Inf",
    "-Infinity, -Inf",
    "NaN, NaN"
  })
  void formatsAsPrometheusClientDoes(double value, String expected) {
    assertThat(PyFloat.format(value)).isEqualTo(expected);
  }
}
