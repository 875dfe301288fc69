package dev.infermon.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Prometheus durations: parsing, the API's float-seconds form, and the canonical printing. */
class DurationsTest {

  @ParameterizedTest(name = "{0} = {1} ms")
  @CsvSource({
    "0, 0",
    "1ms, 1",
    "500ms, 500",
    "1s, 1000",
    "1m, 60000",
    "1h, 3600000",
    "1h30m, 5400000",
    "1d, 86400000",
    "1w, 604800000",
    "1y, 31536000000",
    "1y2w3d4h5m6s7ms, 33019506007",
    "90m, 5400000",
    "0s, 0",
  })
  void parses(String text, long ms) {
    assertThat(PromqlParser.parseDuration(text)).isEqualTo(ms);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("", "empty duration string"),
        Arguments.of("1", "not a valid duration string: \"1\""),
        Arguments.of("m", "not a valid duration string: \"m\""),
        Arguments.of("1m1h", "not a valid duration string: \"1m1h\""),
        Arguments.of("1m1m", "not a valid duration string: \"1m1m\""),
        Arguments.of("-1m", "not a valid duration string: \"-1m\""),
        Arguments.of("1.5m", "unknown unit \".\" in duration \"1.5m\""),
        Arguments.of("5hs", "unknown unit \"hs\" in duration \"5hs\""),
        Arguments.of("1x", "unknown unit \"x\" in duration \"1x\""),
        Arguments.of("300y", "duration out of range"),
        Arguments.of(
            "99999999999999999999s", "not a valid duration string: \"99999999999999999999s\""));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @MethodSource("invalid")
  void rejectsWithPrometheusMessage(String text, String message) {
    assertThatThrownBy(() -> PromqlParser.parseDuration(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @ParameterizedTest(name = "{0} = {1} ms")
  @CsvSource({"15, 15000", "0.5, 500", "1e3, 1000000", "1m, 60000", "1h30m, 5400000", "0, 0"})
  void parsesApiDurationsAsSecondsOrDurations(String text, long ms) {
    assertThat(Durations.parseApiDuration(text)).isEqualTo(ms);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"abc", "1e300", "'1m 2s'"})
  void rejectsBadApiDurationsNamingTheValue(String text) {
    assertThatThrownBy(() -> Durations.parseApiDuration(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot parse \"" + text + "\" to a valid duration");
  }

  @ParameterizedTest(name = "{0} ms = {1}")
  @CsvSource({
    "0, 0s",
    "1, 1ms",
    "1500, 1s500ms",
    "60000, 1m",
    "5400000, 1h30m",
    "86400000, 1d",
    "604800000, 1w",
    "1209600000, 2w",
    "691200000, 8d",
    "31536000000, 1y",
    "31622400000, 366d",
    "33019506007, 382d4h5m6s7ms",
  })
  void formatsAsPrometheusDoes(long ms, String text) {
    assertThat(Durations.format(ms)).isEqualTo(text);
  }

  @Property(tries = 300)
  void formatThenParseIsTheIdentity(@ForAll @LongRange(min = 0, max = 9_000_000_000_000L) long ms) {
    assertThat(Durations.parse(Durations.format(ms))).isEqualTo(ms);
  }
}
