package dev.infermon.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every error the parser reports, as a table: input, Prometheus's message, and the 0-based offset
 * where Prometheus's error range starts. Most rows are the error cases of Prometheus's {@code
 * promql/parser/parse_test.go} whose syntax is not experimental; the rest cover paths that table
 * does not reach. Where Prometheus reports several errors, the first is the one compared.
 */
class ParseErrorsTest {

  static Stream<Arguments> errors() {
    String huge = "9".repeat(309);
    String nested = "(" + "-{}-1".repeat(10000) + ")" + "[1m:]".repeat(1000);
    return Stream.of(
        // Empty input and comments.
        row("", "no expression found in input", 0),
        row("# just a comment\n\n", "no expression found in input", 0),
        // Lexical errors.
        row("1+", "unexpected end of input", 2),
        row(".", "unexpected character: '.'", 0),
        row("2.5.", "bad number or duration syntax: \"2.5.\"", 0),
        row("100..4", "bad number or duration syntax: \"100..\"", 0),
        row("0deadbeef", "bad number or duration syntax: \"0de\"", 0),
        row("1 /", "unexpected end of input", 3),
        row("*1", "unexpected <op:*>", 0),
        row("(1))", "unexpected right parenthesis ')'", 4),
        row("((1)", "unclosed left parenthesis", 4),
        row("(", "unclosed left parenthesis", 1),
        row(
            huge,
            "error parsing number: strconv.ParseFloat: parsing \""
                + huge
                + "\": value out of range",
            0),
        row("1 !~ 1", "unexpected character after '!': '~'", 2),
        row("1 =~ 1", "unexpected character after '=': '~'", 2),
        row("*test", "unexpected <op:*>", 0),
        row("@@", "unexpected <op:@>", 0),
        row("-=", "unexpected \"=\"", 1),
        row("++-++-+-+-<", "unexpected <op:<>", 10),
        row("e-+=/(0)", "unexpected \"=\"", 3),
        row("{", "unexpected end of input inside braces", 1),
        row("}", "unexpected character: '}'", 0),
        row("some{", "unexpected end of input inside braces", 5),
        row("some}", "unexpected character: '}'", 4),
        row("some_metric{a:b=\"b\"}", "unexpected character inside braces: ':'", 13),
        row("foo{a*\"b\"}", "unexpected character inside braces: '*'", 5),
        row("foo{a>=\"b\"}", "unexpected character inside braces: '>'", 5),
        row("foo{1}", "unexpected character inside braces: '1'", 4),
        row("foo{a=\"b\"{", "unexpected left brace '{'", 9),
        row("foo{a!\"b\"}", "unexpected character after '!' inside braces: '\"'", 5),
        row("\"\\", "escape sequence not terminated", 0),
        row("\"\\c\"", "unknown escape sequence U+0063 'c'", 0),
        row("\"\\x.\"", "illegal character U+002E '.' in escape sequence", 0),
        row("\"\\udfff\"", "escape sequence is an invalid Unicode code point", 0),
        row("\"abc", "unterminated quoted string", 0),
        row("\"a\nb\"", "unterminated quoted string", 0),
        row("`\\``", "unterminated raw string", 3),
        row("foo{bar=\"baz\"}[", "unexpected end of input in duration expression", 15),
        row("foo[5s x 5s]", "unexpected character: 'x', expected ':'", 7),
        row("foo[5s s 5s]", "unexpected character: 's', expected ':'", 7),
        row("foo[5m:1m:]", "unexpected colon ':'", 9),
        row("foo[5m::1m]", "aligned subqueries (\"::\") are not supported", 6),
        // Nesting.MAX_DEPTH levels at most: the outermost expression plus 99,999 parentheses.
        row(
            "(".repeat(100_000) + "1" + ")".repeat(100_000),
            "expression nested too deeply (more than 100000 levels)",
            100_000),
        row("foo[[5m]", "unexpected character in duration expression: '['", 4),
        row("foo]", "unexpected right bracket ']'", 3),
        row("foo[\"5m\"]", "unexpected character in duration expression: '\"'", 4),
        row("foo[5mm]", "bad number or duration syntax: \"5mm\"", 4),
        row("foo[5m1]", "bad number or duration syntax: \"5m1\"", 4),
        row("foo[5m:1m1]", "bad number or duration syntax: \"1m1\"", 7),
        row("some_metric[5m] OFFSET 1mm", "bad number or duration syntax: \"1mm\"", 23),
        row("sum by (\"foo)(some_metric{})", "unterminated quoted string", 8),
        row("sum(", "unclosed left parenthesis", 4),
        row("sum(rate(", "unclosed left parenthesis", 9),
        row("foo[5m", "unclosed left bracket", 6),
        // Operators and their modifiers.
        row("1 and 1", "set operator \"and\" not allowed in binary scalar expression", 0),
        row("1 or 1", "set operator \"or\" not allowed in binary scalar expression", 0),
        row("1 unless 1", "set operator \"unless\" not allowed in binary scalar expression", 0),
        row("foo and 1", "set operator \"and\" not allowed in binary scalar expression", 0),
        row("1 and foo", "set operator \"and\" not allowed in binary scalar expression", 0),
        row("foo or 1", "set operator \"or\" not allowed in binary scalar expression", 0),
        row("1 or foo", "set operator \"or\" not allowed in binary scalar expression", 0),
        row("foo unless 1", "set operator \"unless\" not allowed in binary scalar expression", 0),
        row("1 unless foo", "set operator \"unless\" not allowed in binary scalar expression", 0),
        row("1 == 1", "comparisons between scalars must use BOOL modifier", 2),
        row("1 or on(bar) foo", "vector matching only allowed between instant vectors", 0),
        row("foo == on(bar) 10", "vector matching only allowed between instant vectors", 0),
        row("foo + group_left(baz) bar", "unexpected <group_left>", 6),
        row("a - on(b) ignoring(c) d", "unexpected <ignoring>", 10),
        row("foo == on(x) bool bar", "unexpected <bool>", 13),
        row("foo and on(bar) group_left(baz) bar", "no grouping allowed for \"and\" operation", 0),
        row("foo and on(bar) group_right(baz) bar", "no grouping allowed for \"and\" operation", 0),
        row("foo or on(bar) group_left(baz) bar", "no grouping allowed for \"or\" operation", 0),
        row("foo or on(bar) group_right(baz) bar", "no grouping allowed for \"or\" operation", 0),
        row(
            "foo unless on(bar) group_left(baz) bar",
            "no grouping allowed for \"unless\" operation",
            0),
        row(
            "foo unless on(bar) group_right(baz) bar",
            "no grouping allowed for \"unless\" operation",
            0),
        row(
            "http_requests{group=\"production\"} + on(instance) group_left(job,instance)"
                + " cpu_count{type=\"smp\"}",
            "label \"instance\" must not occur in ON and GROUP clause at once",
            34),
        row("foo + bool bar", "bool modifier can only be used on comparison operators", 4),
        row("foo + bool 10", "bool modifier can only be used on comparison operators", 4),
        row("foo and bool 10", "bool modifier can only be used on comparison operators", 4),
        row("foo + on bar", "unexpected identifier \"bar\" in grouping opts, expected \"(\"", 9),
        row(
            "foo * on(a b) bar",
            "unexpected identifier \"b\" in grouping opts, expected \",\" or \")\"",
            11),
        row("foo + fill(0) bar", "binop fill modifiers are experimental and not enabled", 6),
        row(
            "foo[5m] + bar",
            "binary expression must contain only scalar and instant vector types",
            0),
        row(
            "foo + \"a\"",
            "binary expression must contain only scalar and instant vector types",
            6),
        // Unary expressions.
        row(
            "-\"string\"",
            "unary expression only allowed on expressions of type scalar or instant vector, got"
                + " \"string\"",
            0),
        row(
            "-test[5m]",
            "unary expression only allowed on expressions of type scalar or instant vector, got"
                + " \"range vector\"",
            0),
        // Selectors.
        row(
            "some_metric{a=b}",
            "unexpected identifier \"b\" in label matching, expected string",
            14),
        row(
            "foo{gibberish}",
            "unexpected \"}\" in label matching, expected label matching operator",
            13),
        row("{}", "vector selector must contain at least one non-empty matcher", 0),
        row("{x=\"\"}", "vector selector must contain at least one non-empty matcher", 0),
        row("{x=~\".*\"}", "vector selector must contain at least one non-empty matcher", 0),
        row("{x!~\".+\"}", "vector selector must contain at least one non-empty matcher", 0),
        row("{x!=\"a\"}", "vector selector must contain at least one non-empty matcher", 0),
        row("foo{__name__=\"bar\"}", "metric name must not be set twice: \"foo\" or \"bar\"", 0),
        row("foo{__name__= =}", "unexpected \"=\" in label matching, expected string", 14),
        row("foo{,}", "unexpected \",\" in label matching, expected identifier or \"}\"", 4),
        row("foo{__name__ == \"bar\"}", "unexpected \"=\" in label matching, expected string", 14),
        row(
            "foo{__name__=\"bar\" lol}",
            "unexpected identifier \"lol\" in label matching, expected \",\" or \"}\"",
            19),
        row("foo{\"a\"=}", "unexpected \"}\" in label matching, expected string", 8),
        row(nested, "vector selector must contain at least one non-empty matcher", 2),
        // Ranges, subqueries, offset and @.
        row("foo[5y1hs]", "unknown unit \"hs\" in duration \"5y1hs\"", 4),
        row("foo[5m1h]", "not a valid duration string: \"5m1h\"", 4),
        row("foo[5m1m]", "not a valid duration string: \"5m1m\"", 4),
        row("foo[0m]", "duration must be greater than 0", 4),
        row("foo[-1]", "duration must be greater than 0", 4),
        row("foo[5m:0s]", "duration must be greater than 0", 7),
        row(
            "foo[]",
            "unexpected \"]\" in subquery or range selector, expected number, duration, step(), or"
                + " range()",
            4),
        row(
            "foo[step]",
            "unexpected \"]\" in subquery or range selector, expected number, duration, step(), or"
                + " range()",
            8),
        row(
            "foo[5m 1m]",
            "unexpected duration \"1m\" in subquery or range, expected \":\" or \"]\"",
            7),
        row("foo[9.5e10]", "duration out of range", 4),
        row("foo offset 9.5e10", "duration out of range", 11),
        row(
            "some_metric[5m] OFFSET",
            "unexpected end of input in offset, expected number, duration, step(), or range()",
            22),
        row("some_metric OFFSET 1m[5m]", "no offset modifiers allowed before range", 21),
        row("some_metric[5m] @", "unexpected end of input in @, expected timestamp", 17),
        row("foo @ start(", "unclosed left parenthesis", 12),
        row("foo @ start", "unexpected end of input in @, expected timestamp", 11),
        row("some_metric @ 1234 [5m]", "no @ modifiers allowed before range", 19),
        row("some_metric @ start() [5m]", "no @ modifiers allowed before range", 22),
        row("some_metric @ end()[5m]", "no @ modifiers allowed before range", 19),
        row("(foo + bar)[5m]", "ranges only allowed for vector selectors", 11),
        row("rate(food[1m])[1h] offset 1h", "ranges only allowed for vector selectors", 14),
        row("rate(food[1m])[1h] @ 100", "ranges only allowed for vector selectors", 14),
        row("1[5m] smoothed", "ranges only allowed for vector selectors", 1),
        row("foo[5m] anchored", "anchored modifier is experimental and not enabled", 0),
        row(
            "1 offset 1d",
            "offset modifier must be preceded by an instant vector selector or range vector"
                + " selector or a subquery",
            0),
        row("foo offset 1s offset 2s", "offset may not be set multiple times", 0),
        row("foo[5m:] offset 1s offset 2s", "offset may not be set multiple times", 0),
        row("foo @ 1 @ 2", "@ <timestamp> may not be set multiple times", 0),
        row(
            "rate(some_metric[5m]) @ 1234",
            "@ modifier must be preceded by an instant vector selector or range vector selector or"
                + " a subquery",
            0),
        row("foo @ +Inf", "timestamp out of bounds for @ modifier: +Inf", 0),
        row("foo @ -Inf", "timestamp out of bounds for @ modifier: -Inf", 0),
        row("foo @ NaN", "timestamp out of bounds for @ modifier: NaN", 0),
        row(
            "foo @ 9223372036854775808.000000",
            "timestamp out of bounds for @ modifier: 9223372036854775808.000000",
            0),
        row(
            "foo @ -9223372036854775808.000000",
            "timestamp out of bounds for @ modifier: -9223372036854775808.000000",
            0),
        row(
            "test[5d] OFFSET 10s [10m:5s]",
            "subquery is only allowed on instant vector, got matrix instead",
            0),
        row(
            "(foo + bar{nm=\"val\"})[5m:][10m:5s]",
            "subquery is only allowed on instant vector, got matrix instead",
            0),
        row("foo[5m+1m]", "experimental duration expression is not enabled", 4),
        row("foo[(5m)]", "experimental duration expression is not enabled", 4),
        row("foo offset (5m)", "experimental duration expression is not enabled", 11),
        // Aggregations.
        row(
            "sum without(==)(some_metric)",
            "unexpected <op:==> in grouping opts, expected label",
            12),
        row("sum without(,)(some_metric)", "unexpected \",\" in grouping opts, expected label", 12),
        row(
            "sum without(foo,,)(some_metric)",
            "unexpected \",\" in grouping opts, expected label",
            16),
        row("sum without(without)(x)", "unexpected <without> in grouping opts, expected label", 12),
        row("sum by (\"\")(x)", "invalid label name for grouping: \"\"", 8),
        row("sum some_metric by (test)", "unexpected identifier \"some_metric\"", 4),
        row(
            "sum (some_metric) by test",
            "unexpected identifier \"test\" in grouping opts, expected \"(\"",
            21),
        row("sum () by (test)", "no arguments for aggregate expression provided", 0),
        row("MIN keep_common (some_metric)", "unexpected identifier \"keep_common\"", 4),
        row("MIN (some_metric) keep_common", "unexpected identifier \"keep_common\"", 18),
        row("sum (some_metric) without (test) by (test)", "unexpected <by>", 33),
        row("sum without (test) (some_metric) by (test)", "unexpected <by>", 33),
        row("sum by (a) x", "unexpected identifier \"x\" in aggregation", 11),
        row("sum(foo bar)", "unexpected identifier \"bar\" in aggregation", 8),
        row("sum(rate(foo bar))", "unexpected identifier \"bar\" in aggregation", 13),
        row(
            "topk(some_metric)",
            "wrong number of arguments for aggregate expression provided, expected 2, got 1",
            0),
        row(
            "sum(a, b)",
            "wrong number of arguments for aggregate expression provided, expected 1, got 2",
            0),
        row("topk(some_metric,)", "trailing commas not allowed in function call args", 16),
        row(
            "topk(some_metric, other_metric)",
            "expected type scalar in aggregation parameter, got instant vector",
            5),
        row(
            "count_values(5, other_metric)",
            "expected type string in aggregation parameter, got scalar",
            13),
        row(
            "sum(foo[5m])",
            "expected type instant vector in aggregation expression, got range vector",
            4),
        // Function calls.
        row("floor()", "expected 1 argument(s) in call to \"floor\", got 0", 0),
        row(
            "floor(some_metric, other_metric)",
            "expected 1 argument(s) in call to \"floor\", got 2",
            0),
        row("floor(some_metric, 1)", "expected 1 argument(s) in call to \"floor\", got 2", 0),
        row(
            "floor(1)",
            "expected type instant vector in call to function \"floor\", got scalar",
            6),
        row(
            "hour(some_metric, some_metric, some_metric)",
            "expected at most 1 argument(s) in call to \"hour\", got 3",
            0),
        row("label_join(x)", "expected at least 3 argument(s) in call to \"label_join\", got 1", 0),
        row(
            "label_join(x, \"a\", \",\", 1)",
            "expected type string in call to function \"label_join\", got scalar",
            24),
        row("time(some_metric)", "expected 0 argument(s) in call to \"time\", got 1", 0),
        row(
            "non_existent_function_far_bar()",
            "unknown function with name \"non_existent_function_far_bar\"",
            0),
        row("RATE(x[5m])", "unknown function with name \"RATE\"", 0),
        row("a>b()", "unknown function with name \"b\"", 2),
        row(
            "rate(some_metric)",
            "expected type range vector in call to function \"rate\", got instant vector",
            5),
        row(
            "rate(avg)",
            "expected type range vector in call to function \"rate\", got instant vector",
            5),
        row("rate(foo bar)", "unexpected identifier \"bar\"", 9),
        row("abs(foo,)", "trailing commas not allowed in function call args", 7),
        row(
            "info(rate(http_request_counter_total{}[5m]), target_info{foo=\"bar\"})",
            "expected label selectors only, got vector selector instead",
            45),
        row(
            "info(http_request_counter_total{namespace=\"zzz\"}, {foo=\"bar\"} == 1)",
            "expected label selectors only",
            50));
  }

  private static Arguments row(String input, String message, int offset) {
    return Arguments.of(input, message, offset);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("errors")
  void reportsPrometheusMessageAndPosition(String input, String message, int offset) {
    ParseException e = catchThrowableOfType(ParseException.class, () -> PromqlParser.parse(input));
    assertThat(e).as("parse of %s should fail", input).isNotNull();
    assertThat(e.detail()).isEqualTo(message);
    assertThat(e.offset()).as("offset").isEqualTo(offset);
  }
}
