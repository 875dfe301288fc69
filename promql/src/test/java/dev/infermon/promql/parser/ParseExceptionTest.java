package dev.infermon.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/** Where errors point, and how they read. */
class ParseExceptionTest {

  private static ParseException fail(String input) {
    return catchThrowableOfType(ParseException.class, () -> PromqlParser.parse(input));
  }

  @Test
  void carriesLineColumnTokenAndPrometheusWording() {
    ParseException e = fail("sum(rate(http_requests_total[5m])) by (job) * * 2");
    assertThat(e.line()).isEqualTo(1);
    assertThat(e.column()).isEqualTo(47);
    assertThat(e.token()).isEqualTo("*");
    assertThat(e.detail()).isEqualTo("unexpected <op:*>");
    assertThat(e.getMessage()).isEqualTo("unexpected <op:*> at line 1, column 47");
    assertThat(e.prometheusMessage()).isEqualTo("1:47: parse error: unexpected <op:*>");
  }

  @Test
  void countsLinesAndColumnsAcrossNewlines() {
    ParseException e = fail("sum by (job) (\n  rate(foo)\n)");
    assertThat(e.line()).isEqualTo(2);
    assertThat(e.column()).isEqualTo(8);
    assertThat(e.token()).isEqualTo("foo");
    assertThat(e.snippet()).isEqualTo("  rate(foo)\n       ^");
  }

  @Test
  void countsColumnsInCodePoints() {
    ParseException e = fail("{\"ü☺\"=\"x\"} + * 1");
    assertThat(e.column()).isEqualTo(14);
    assertThat(e.snippet()).isEqualTo("{\"ü☺\"=\"x\"} + * 1\n             ^");
  }

  @Test
  void pointsPastTheEndForEndOfInput() {
    ParseException e = fail("foo +");
    assertThat(e.column()).isEqualTo(6);
    assertThat(e.token()).isEmpty();
    assertThat(e.snippet()).isEqualTo("foo +\n     ^");
  }

  @Test
  void keepsTabsSoTheCaretLinesUp() {
    ParseException e = fail("\tfoo +");
    assertThat(e.snippet()).isEqualTo("\tfoo +\n\t     ^");
  }
}
