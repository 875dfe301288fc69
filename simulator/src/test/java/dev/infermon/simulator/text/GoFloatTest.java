package dev.infermon.simulator.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's strconv.FormatFloat(f, 'g', -1, 64), as client_golang writes values and bounds. */
class GoFloatTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0.005, 0.005",
    "1.0, 1",
    "1.25, 1.25",
    "3600.0, 3600",
    "123456.5, 123456.5",
    "1000000.0, 1e+06",
    "24576000.0, 2.4576e+07",
    "0.0001, 0.0001",
    "0.000015, 1.5e-05",
    "0.0, 0",
    "-2.5, -2.5"
  })
  void formatsAsGo(double v, String go) {
    assertThat(GoFloat.format(v)).isEqualTo(go);
  }
}
