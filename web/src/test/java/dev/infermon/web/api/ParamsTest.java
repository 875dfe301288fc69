package dev.infermon.web.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParamsTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "1, 1000",
    "1.5, 1500",
    "1.0004, 1000",
    "1.0005, 1000",
    "1.0006, 1001",
    "-1.5, -1500",
    "1e3, 1000000",
    "1700000000.123, 1700000000123",
    "2015-07-01T20:10:51.781Z, 1435781451781",
    "2015-07-01T22:10:51+02:00, 1435781451000",
    "-292273086-05-16T16:47:06Z, -9223309901257974000",
    "292277025-08-18T07:12:54.999999999Z, 9223309901257974999",
    "9223309901257974, 9223309901257974000",
    "-9223309901257974, -9223309901257974000",
  })
  void timesAsPrometheusParsesThem(String s, long ms) {
    assertThat(Params.time(s)).isEqualTo(ms);
  }

  @ParameterizedTest
  @CsvSource({
    "x",
    "1d",
    "0x10",
    "NaN",
    "2015-07-01",
    // Beyond Prometheus's minTime/maxTime: 2.42 answers these at a wrapped-around time.
    "1e300",
    "-1e300",
    "9223372036854775.807",
    "9223309901257976",
    "-9223309901257976",
    "1e19",
    "292277025-08-18T07:12:55Z",
    "292278000-01-01T00:00:00Z",
    "-292273086-05-16T16:47:05Z"
  })
  void badTimesNameTheValue(String s) {
    assertThatThrownBy(() -> Params.time(s))
        .hasMessage("cannot parse \"" + s + "\" to a valid timestamp");
  }

  @ParameterizedTest(name = "{0} -> {1} ms")
  @CsvSource({
    "15, 15000",
    "1.5, 1500",
    "0, 0",
    "-1, -1000",
    "1m30s, 90000",
    "5m, 300000",
    "1d, 86400000",
    "250ms, 250"
  })
  void durationsAsSecondsOrPrometheusSyntax(String s, long ms) {
    assertThat(Params.duration(s)).isEqualTo(ms);
  }

  @ParameterizedTest
  @CsvSource({"x", "1x", "''"})
  void badDurationsNameTheValue(String s) {
    assertThatThrownBy(() -> Params.duration(s))
        .hasMessage("cannot parse \"" + s + "\" to a valid duration");
  }

  @ParameterizedTest
  @CsvSource({"1e300"})
  void overflowingDurations(String s) {
    assertThatThrownBy(() -> Params.duration(s)).hasMessageContaining("It overflows int64");
  }
}
