package dev.infermon.model.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's {@code strconv.Quote} for the characters Prometheus's messages meet. */
class GoQuoteTest {
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "''            | '\"\"'",
        "a b           | '\"a b\"'",
        "'say \"hi\"'  | '\"say \\\"hi\\\"\"'",
        "'a\\b'        | '\"a\\\\b\"'",
        "é             | '\"é\"'",
      })
  void quotesLikeGo(String in, String expected) {
    assertThat(GoQuote.quote(in)).isEqualTo(expected);
  }

  @Test
  void escapesControlCharacters() {
    assertThat(GoQuote.quote("a\nb\tc\rd")).isEqualTo("\"a\\nb\\tc\\rd\"");
    assertThat(GoQuote.quote("\u0001\u007f")).isEqualTo("\"\\x01\\x7f\"");
  }
}
