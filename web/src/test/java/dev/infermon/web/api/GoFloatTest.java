package dev.infermon.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Values as Prometheus 2.42 printed them for the same queries (see docs/http-api.md). */
class GoFloatTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "2                      | 2",
        "1e-7                   | 0.0000001",
        "1e21                   | 1000000000000000000000",
        "-0.0                   | -0",
        "0.30000000000000004    | 0.30000000000000004",
        "NaN                    | NaN",
        "Infinity               | +Inf",
        "-Infinity              | -Inf",
        "1.5e2                  | 150",
        "-2.25                  | -2.25",
        "282879384806159000     | 282879384806159000",
        "2.82879384806159E17    | 282879384806159000",
      })
  void formatsLikeGo(double v, String want) {
    assertThat(GoFloat.format(v)).isEqualTo(want);
  }

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
    assertThat(GoFloat.point(v)).isEqualTo(want);
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
    assertThat(GoFloat.timestamp(ms)).isEqualTo(want);
  }

  @Property(tries = 500)
  void formattedValuesReadBackExactly(@ForAll double v) {
    String s = GoFloat.format(v);
    assertThat(s).doesNotContain("E").doesNotContain("e");
    double back =
        s.equals("+Inf")
            ? Double.POSITIVE_INFINITY
            : s.equals("-Inf") ? Double.NEGATIVE_INFINITY : Double.parseDouble(s);
    assertThat(Double.doubleToLongBits(back)).isEqualTo(Double.doubleToLongBits(v));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {"1 | 1e+00", "1.5e-7 | 1.5e-07", "123456 | 1.23456e+05", "-2 | -2e+00", "0 | 0e+00"})
  void alertValuesUseExponentForm(double v, String want) {
    assertThat(GoTime.expFloat(v)).isEqualTo(want);
  }
}
