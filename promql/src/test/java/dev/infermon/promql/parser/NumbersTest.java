package dev.infermon.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Number literals read as Go's ParseInt(s, 0, 64) then ParseFloat, as Prometheus reads them. */
class NumbersTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "1, 1",
    "0, 0",
    "0x1f, 31",
    "0X1F, 31",
    "0x_1f, 31",
    "0755, 493",
    "08, 8",
    "09.5, 9.5",
    "1_000, 1000",
    "1_000.5, 1000.5",
    "1e3, 1000",
    "1E-3, 0.001",
    ".5, 0.5",
    "5., 5",
    "Inf, Infinity",
    "inf, Infinity",
    "INF, Infinity",
    "NaN, NaN",
    "nan, NaN",
    "9223372036854775807, 9.223372036854775807E18",
    "9223372036854775808, 9.223372036854775808E18",
  })
  void parses(String text, double value) {
    // Boxed, so that NaN equals NaN.
    assertThat(Double.valueOf(PromqlParser.parseNumber(text))).isEqualTo(Double.valueOf(value));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "1e400, 'strconv.ParseFloat: parsing \"1e400\": value out of range'",
    "0xffffffffffffffffff, 'strconv.ParseFloat: parsing \"0xffffffffffffffffff\": invalid syntax'",
    "1__0, 'strconv.ParseFloat: parsing \"1__0\": invalid syntax'",
    "_1, 'strconv.ParseFloat: parsing \"_1\": invalid syntax'",
    "1d, 'strconv.ParseFloat: parsing \"1d\": invalid syntax'",
  })
  void rejectsWithGoMessage(String text, String message) {
    assertThatThrownBy(() -> PromqlParser.parseNumber(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }
}
