package dev.infermon.textparse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One row per kind of malformed input: the exact error, with its line and column, that the parser
 * reports. {@code T} rows are text format with default (lenient) options, {@code TS} text with
 * {@link Conformance#STRICT}, {@code OM} OpenMetrics with default (strict) options.
 */
class MalformedInputTest {
  record Row(String name, String mode, byte[] input, ParseException.Reason reason, String error) {
    @Override
    public String toString() {
      return mode + " " + name;
    }
  }

  private static Row t(String name, String input, String error) {
    return row(name, "T", input, ParseException.Reason.SYNTAX, error);
  }

  private static Row ts(String name, String input, String error) {
    return row(name, "TS", input, ParseException.Reason.CONFORMANCE, error);
  }

  private static Row om(String name, String input, ParseException.Reason reason, String error) {
    return row(name, "OM", input, reason, error);
  }

  private static Row row(
      String name, String mode, String input, ParseException.Reason reason, String error) {
    return new Row(name, mode, input.getBytes(StandardCharsets.UTF_8), reason, error);
  }

  private static Row bytes(String name, String mode, byte[] input, String error) {
    return new Row(name, mode, input, ParseException.Reason.SYNTAX, error);
  }

  private static final ParseException.Reason SYNTAX = ParseException.Reason.SYNTAX;
  private static final ParseException.Reason CONFORMANCE = ParseException.Reason.CONFORMANCE;

  static Stream<Row> rows() {
    return Stream.of(
        // Escapes and quoting.
        ts(
            "invalid escape in a label value",
            "a{b=\"x\\qy\"} 1\n",
            "line 1, column 7: invalid escape sequence \"\\\\q\" in label value"),
        ts(
            "invalid escape in help",
            "# HELP a x\\ty\n",
            "line 1, column 11: invalid escape sequence \"\\\\t\" in help text"),
        t(
            "unterminated label value",
            "a{b=\"c} 1\n",
            "line 1, column 10: label value \"c} 1\" is not terminated: the line ends inside the"
                + " quotes"),
        t(
            "newline inside a label value (a cut page)",
            "a{b=\"1\"} 1\na{b=\"de\n",
            "line 2, column 8: label value \"de\" is not terminated: the line ends inside the quotes"),
        t(
            "backslash at the end of a label value",
            "a{b=\"c\\\n",
            "line 1, column 8: label value \"c\\\\\" is not terminated: the line ends inside the"
                + " quotes"),
        t(
            "unquoted label value",
            "a{b=c} 1\n",
            "line 1, column 5: expected a quoted value for label \"b\", got \"c}\""),
        t(
            "single-quoted label value",
            "a{b='c'} 1\n",
            "line 1, column 5: expected a quoted value for label \"b\", got \"'c'}\""),
        // Labels.
        t(
            "duplicate label",
            "a{b=\"1\",b=\"2\"} 1\n",
            "line 1, column 9: duplicate label name \"b\""),
        t(
            "duplicate label, one quoted",
            "a{b=\"1\",\"b\"=\"2\"} 1\n",
            "line 1, column 10: duplicate label name \"b\""),
        t(
            "reserved __name__ label",
            "a{__name__=\"b\"} 1\n",
            "line 1, column 3: label name \"__name__\" is reserved: give the metric name instead"),
        t(
            "label name starting with a digit",
            "a{1b=\"c\"} 1\n",
            "line 1, column 3: expected a label name, got \"1\""),
        t(
            "missing '='",
            "a{b \"c\"} 1\n",
            "line 1, column 5: expected '=' after label name \"b\", got \"\\\"\""),
        t(
            "missing comma",
            "a{b=\"1\" c=\"2\"} 1\n",
            "line 1, column 9: expected ',' or '}' after the value of label \"b\", got \"c\""),
        t(
            "unclosed label braces",
            "a{b=\"1\"\n",
            "line 1, column 8: expected ',' or '}' after the value of label \"b\", got end of line"),
        t(
            "metric name given twice",
            "{\"a\",\"b\"} 1\n",
            "line 1, column 6: metric name given twice: \"\\\"b\\\"\""),
        t(
            "no metric name",
            "{b=\"c\"} 1\n",
            "line 1, column 1: no metric name in \"{b=\\\"c\\\"}\""),
        // Names.
        t(
            "name starting with a digit",
            "0a 1\n",
            "line 1, column 1: expected a metric name, a '#' or a blank line, got \"0a\""),
        t(
            "name with a dot",
            "a.b 1\n",
            "line 1, column 2: unexpected \".\" after metric name \"a\""),
        t(
            "name with a dash",
            "a-b 1\n",
            "line 1, column 2: unexpected \"-\" after metric name \"a\""),
        om(
            "name with a dot",
            "a.b 1\n# EOF\n",
            SYNTAX,
            "line 1, column 2: expected ' ' and a value after \"a\", got \".\""),
        // Values and timestamps.
        t(
            "missing value",
            "a\n",
            "line 1, column 2: expected a value after \"a\", got end of line"),
        t("non-float value", "a abc\n", "line 1, column 3: invalid value \"abc\""),
        t("hexadecimal float value", "a 0x1p-3\n", "line 1, column 3: invalid value \"0x1p-3\""),
        t("underscore in a value", "a 1_000\n", "line 1, column 3: invalid value \"1_000\""),
        t("value out of range", "a 1e400\n", "line 1, column 3: invalid value \"1e400\""),
        t(
            "fractional timestamp",
            "a 1 1.5\n",
            "line 1, column 5: invalid timestamp \"1.5\": expected integer milliseconds"),
        t(
            "negative timestamp",
            "a 1 -5\n",
            "line 1, column 5: invalid timestamp \"-5\": expected integer milliseconds"),
        t(
            "timestamp out of range",
            "a 1 99999999999999999999\n",
            "line 1, column 5: invalid timestamp \"99999999999999999999\": expected integer"
                + " milliseconds"),
        t(
            "text after the timestamp",
            "a 1 2 3\n",
            "line 1, column 7: unexpected \"3\" after the timestamp"),
        om(
            "timestamp NaN",
            "a 1 NaN\n# EOF\n",
            SYNTAX,
            "line 1, column 5: invalid timestamp \"NaN\": expected a number of seconds"),
        om(
            "double space before the value",
            "a  1\n# EOF\n",
            SYNTAX,
            "line 1, column 3: expected a value, got \" \""),
        // Metadata.
        t(
            "invalid type",
            "# TYPE a meter\n",
            "line 1, column 10: invalid metric type \"meter\": expected counter, gauge, histogram,"
                + " summary or untyped"),
        t(
            "HELP without a name",
            "# HELP\t\n",
            "line 1, column 8: expected a metric name after HELP, got end of line"),
        ts(
            "second TYPE",
            "# TYPE a gauge\n# TYPE a gauge\n",
            "line 2, column 1: second TYPE line for \"a\""),
        ts(
            "second HELP",
            "# HELP a x\n# HELP a y\n",
            "line 2, column 1: second HELP line for \"a\""),
        ts(
            "TYPE after samples",
            "a 1\n# TYPE a gauge\n",
            "line 2, column 1: TYPE line for \"a\" after its samples"),
        om(
            "second TYPE",
            "# TYPE a gauge\n# TYPE a gauge\n# EOF\n",
            CONFORMANCE,
            "line 2, column 1: second TYPE line for \"a\""),
        om(
            "TYPE after samples",
            "a 1\n# TYPE a gauge\n# EOF\n",
            CONFORMANCE,
            "line 2, column 1: TYPE line for \"a\" after its samples"),
        om(
            "comment that is not metadata",
            "# just a comment\n# EOF\n",
            SYNTAX,
            "line 1, column 1: invalid comment \"# just a comment\": OpenMetrics has only \"# HELP\","
                + " \"# TYPE\", \"# UNIT\" and \"# EOF\" lines"),
        om(
            "unit that is not a suffix",
            "# UNIT a_bytes seconds\n# EOF\n",
            SYNTAX,
            "line 1, column 16: unit \"seconds\" is not a suffix of metric name \"a_bytes\""),
        // Histograms and other family rules.
        ts(
            "histogram without +Inf",
            "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n",
            "line 4, column 1: histogram \"h\": the histogram has no le=\"+Inf\" bucket"),
        om(
            "histogram without +Inf",
            "# TYPE h histogram\nh_bucket{le=\"1\"} 1\n# EOF\n",
            CONFORMANCE,
            "line 2, column 1: histogram \"h\": the histogram has no le=\"+Inf\" bucket"),
        ts(
            "buckets out of order",
            "# TYPE h histogram\nh_bucket{le=\"2\"} 1\nh_bucket{le=\"1\"} 1\n",
            "line 3, column 1: histogram \"h\": buckets out of order: le=\"1\" after le=\"2\""),
        ts(
            "bucket without le",
            "# TYPE h histogram\nh_bucket 1\n",
            "line 2, column 1: histogram bucket \"h_bucket\" has no le label"),
        ts(
            "count differing from +Inf",
            "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_count 3\n",
            "line 3, column 1: histogram \"h\": the count 3 differs from the le=\"+Inf\" bucket's 2"),
        ts(
            "summary quantile that is not a number",
            "# TYPE s summary\ns{quantile=\"high\"} 1\n",
            "line 2, column 3: invalid quantile label value \"high\""),
        om(
            "negative counter",
            "# TYPE c counter\nc_total -1\n# EOF\n",
            CONFORMANCE,
            "line 2, column 9: _total values cannot be negative, got -1.0"),
        om(
            "exemplar on a gauge",
            "# TYPE g gauge\ng 1 # {a=\"b\"} 1\n# EOF\n",
            CONFORMANCE,
            "line 2, column 1: only histogram buckets and counter totals can have exemplars"),
        // Structure of an OpenMetrics page.
        om(
            "blank line",
            "a 1\n\n# EOF\n",
            SYNTAX,
            "line 2, column 1: blank lines are not allowed in OpenMetrics"),
        om(
            "missing # EOF",
            "a 1\n",
            SYNTAX,
            "line 2, column 1: the page does not end with \"# EOF\""),
        om(
            "data after # EOF",
            "a 1\n# EOF\nb 2\n",
            SYNTAX,
            "line 3, column 1: unexpected data after \"# EOF\" (line 2): \"b 2\""),
        // Bytes that are not text.
        bytes(
            "NUL byte in a metric name",
            "T",
            new byte[] {'a', 0, 'b', ' ', '1', '\n'},
            "line 1, column 2: unexpected \"\\x00\" after metric name \"a\""),
        bytes(
            "NUL byte as the value",
            "T",
            new byte[] {'a', ' ', 0, '\n'},
            "line 1, column 3: invalid value \"\\x00\""),
        bytes(
            "invalid UTF-8 in a label value",
            "T",
            new byte[] {'a', '{', 'b', '=', '"', 'x', (byte) 0xC3, '"', '}', ' ', '1', '\n'},
            "line 1, column 7: invalid UTF-8 in label value \"\\\"x\uFFFD\\\"\""),
        bytes(
            "overlong UTF-8 in help",
            "T",
            new byte[] {
              '#', ' ', 'H', 'E', 'L', 'P', ' ', 'a', ' ', (byte) 0xC0, (byte) 0x80, '\n'
            },
            "line 1, column 10: invalid UTF-8 in help text \"\uFFFD\uFFFD\""),
        bytes(
            "UTF-16 surrogate encoded in UTF-8",
            "OM",
            new byte[] {
              'a',
              '{',
              'b',
              '=',
              '"',
              (byte) 0xED,
              (byte) 0xA0,
              (byte) 0x80,
              '"',
              '}',
              ' ',
              '1',
              '\n'
            },
            "line 1, column 6: invalid UTF-8 in label value \"\\\"\uFFFD\\\"\""),
        // Columns count code points, not bytes.
        t(
            "error after multi-byte characters",
            "a{b=\"☃☃\",b=\"x\"} 1\n",
            "line 1, column 10: duplicate label name \"b\""));
  }

  private static ParserFactory factory(String mode) {
    switch (mode) {
      case "T":
        return Parsers.forFormat(Format.TEXT, ParserOptions.DEFAULT);
      case "TS":
        return Parsers.forFormat(
            Format.TEXT, ParserOptions.builder().textConformance(Conformance.STRICT).build());
      default:
        return Parsers.forFormat(Format.OPENMETRICS, ParserOptions.DEFAULT);
    }
  }

  @ParameterizedTest
  @MethodSource("rows")
  void malformedInputIsReportedAtItsLineAndColumn(Row row) {
    Parser p = factory(row.mode()).parse(row.input());
    ParseException e = catchThrowableOfType(ParseException.class, () -> drain(p));
    assertThat(e).as("an error is reported").isNotNull();
    assertThat(e.getMessage()).isEqualTo(row.error());
    assertThat(e.line())
        .isEqualTo(Integer.parseInt(row.error().replaceAll("line (\\d+),.*", "$1")));
    assertThat(e.reason()).isEqualTo(row.reason());
  }

  @org.junit.jupiter.api.Test
  void theTableHasAtLeastFortyRows() {
    assertThat(rows().count()).isGreaterThanOrEqualTo(40);
  }

  private static void drain(Parser p) throws ParseException {
    while (p.next() != Entry.EOF) {
      // drain
    }
  }
}
