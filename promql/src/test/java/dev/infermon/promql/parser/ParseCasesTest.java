package dev.infermon.promql.parser;

import static dev.infermon.promql.parser.Ast.agg;
import static dev.infermon.promql.parser.Ast.at;
import static dev.infermon.promql.parser.Ast.bin;
import static dev.infermon.promql.parser.Ast.braces;
import static dev.infermon.promql.parser.Ast.by;
import static dev.infermon.promql.parser.Ast.call;
import static dev.infermon.promql.parser.Ast.cmpBool;
import static dev.infermon.promql.parser.Ast.ignoring;
import static dev.infermon.promql.parser.Ast.neg;
import static dev.infermon.promql.parser.Ast.num;
import static dev.infermon.promql.parser.Ast.offset;
import static dev.infermon.promql.parser.Ast.on;
import static dev.infermon.promql.parser.Ast.param;
import static dev.infermon.promql.parser.Ast.paren;
import static dev.infermon.promql.parser.Ast.range;
import static dev.infermon.promql.parser.Ast.str;
import static dev.infermon.promql.parser.Ast.subquery;
import static dev.infermon.promql.parser.Ast.vs;
import static dev.infermon.promql.parser.Ast.without;
import static dev.infermon.promql.parser.BinaryOp.ADD;
import static dev.infermon.promql.parser.BinaryOp.DIV;
import static dev.infermon.promql.parser.BinaryOp.EQL;
import static dev.infermon.promql.parser.BinaryOp.GTE;
import static dev.infermon.promql.parser.BinaryOp.GTR;
import static dev.infermon.promql.parser.BinaryOp.LAND;
import static dev.infermon.promql.parser.BinaryOp.LOR;
import static dev.infermon.promql.parser.BinaryOp.LSS;
import static dev.infermon.promql.parser.BinaryOp.LTE;
import static dev.infermon.promql.parser.BinaryOp.LUNLESS;
import static dev.infermon.promql.parser.BinaryOp.MOD;
import static dev.infermon.promql.parser.BinaryOp.MUL;
import static dev.infermon.promql.parser.BinaryOp.NEQ;
import static dev.infermon.promql.parser.BinaryOp.POW;
import static dev.infermon.promql.parser.BinaryOp.SUB;
import static dev.infermon.promql.parser.VectorMatching.Cardinality.MANY_TO_MANY;
import static dev.infermon.promql.parser.VectorMatching.Cardinality.MANY_TO_ONE;
import static dev.infermon.promql.parser.VectorMatching.Cardinality.ONE_TO_MANY;
import static dev.infermon.promql.parser.VectorMatching.Cardinality.ONE_TO_ONE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Matcher;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What valid queries parse to: input and the expected tree, modelled on the successful cases of
 * Prometheus's {@code promql/parser/parse_test.go} (positions left out: our trees carry none).
 */
class ParseCasesTest {
  private static final long S = 1000;
  private static final long M = 60 * S;
  private static final long H = 60 * M;
  private static final long D = 24 * H;

  static Stream<Arguments> cases() {
    VectorSelector foo = vs("foo");
    VectorSelector bar = vs("bar");
    VectorSelector some = vs("some_metric");
    return Stream.of(
        // Numbers.
        row("1", num(1)),
        row("+Inf", num(Double.POSITIVE_INFINITY)),
        row("-Inf", num(Double.NEGATIVE_INFINITY)),
        row("inf", num(Double.POSITIVE_INFINITY)),
        row("NaN", num(Double.NaN)),
        row("nan", num(Double.NaN)),
        row(".5", num(0.5)),
        row("5.", num(5)),
        row("123.4567", num(123.4567)),
        row("5e-3", num(0.005)),
        row("5e3", num(5000)),
        row("5E3", num(5000)),
        row("0xc", num(12)),
        row("0XC", num(12)),
        row("0755", num(493)),
        row("08", num(8)),
        row("1_000", num(1000)),
        row("0x_1f", num(31)),
        row("+5.5e-3", num(0.0055)),
        row("-0755", num(-493)),
        row("1h", num(3600)),
        row("1h30m", num(5400)),
        row("500ms", num(0.5)),
        row("1y", num(365 * 24 * 3600)),
        // Scalar arithmetic and precedence.
        row("1 + 1", bin(ADD, num(1), num(1))),
        row("1 - 1", bin(SUB, num(1), num(1))),
        row("1 * 1", bin(MUL, num(1), num(1))),
        row("1 % 1", bin(MOD, num(1), num(1))),
        row("1 / 1", bin(DIV, num(1), num(1))),
        row("1 == bool 1", cmpBool(EQL, num(1), num(1))),
        row("1 != bool 1", cmpBool(NEQ, num(1), num(1))),
        row("1 > bool 1", cmpBool(GTR, num(1), num(1))),
        row("1 >= bool 1", cmpBool(GTE, num(1), num(1))),
        row("1 < bool 1", cmpBool(LSS, num(1), num(1))),
        row("1 <= bool 1", cmpBool(LTE, num(1), num(1))),
        row("1 == BOOL 1", cmpBool(EQL, num(1), num(1))),
        row("-1^2", neg(bin(POW, num(1), num(2)))),
        row("-1*2", bin(MUL, num(-1), num(2))),
        row("-1+2", bin(ADD, num(-1), num(2))),
        row("-1^-2", neg(bin(POW, num(1), num(-2)))),
        row("+1 + -2 * 1", bin(ADD, num(1), bin(MUL, num(-2), num(1)))),
        row("1 + 2/(3*1)", bin(ADD, num(1), bin(DIV, num(2), paren(bin(MUL, num(3), num(1)))))),
        row("1 < bool 2 - 1 * 2", cmpBool(LSS, num(1), bin(SUB, num(2), bin(MUL, num(1), num(2))))),
        row("2 ^ 3 ^ 2", bin(POW, num(2), bin(POW, num(3), num(2)))),
        row("8 / 4 / 2", bin(DIV, bin(DIV, num(8), num(4)), num(2))),
        row("2 atan2 1", bin(BinaryOp.ATAN2, num(2), num(1))),
        row("- -1", num(1)),
        row("-some_metric", neg(some)),
        row("+some_metric", new UnaryExpr(ADD, some)),
        row(" +some_metric", new UnaryExpr(ADD, some)),
        row(" +{\"some_metric\"}", new UnaryExpr(ADD, braces(Matcher.metricName("some_metric")))),
        row("-foo ^ 2", neg(bin(POW, foo, num(2)))),
        row("-foo * 2", bin(MUL, neg(foo), num(2))),
        row("1 # comment\n + 2", bin(ADD, num(1), num(2))),
        // Vector binary operations.
        row("foo * bar", bin(MUL, foo, bar)),
        row("foo * sum", bin(MUL, foo, vs("sum"))),
        row("foo == 1", bin(EQL, foo, num(1))),
        row("foo == bool 1", cmpBool(EQL, foo, num(1))),
        row("2.5 / bar", bin(DIV, num(2.5), bar)),
        row("foo and bar", bin(LAND, foo, bar)),
        row("foo or bar", bin(LOR, foo, bar)),
        row("foo unless bar", bin(LUNLESS, foo, bar)),
        row("foo AND bar", bin(LAND, foo, bar)),
        row(
            "foo + bar or bla and blub",
            bin(LOR, bin(ADD, foo, bar), bin(LAND, vs("bla"), vs("blub")))),
        row(
            "foo and bar unless baz or qux",
            bin(LOR, bin(LUNLESS, bin(LAND, foo, bar), vs("baz")), vs("qux"))),
        row(
            "bar + on(foo) bla / on(baz, buz) group_right(test) blub",
            bin(
                ADD,
                bar,
                bin(DIV, vs("bla"), vs("blub"), on(ONE_TO_MANY, List.of("baz", "buz"), "test")),
                on(ONE_TO_ONE, List.of("foo")))),
        row("foo * on(test,blub) bar", bin(MUL, foo, bar, on(ONE_TO_ONE, List.of("test", "blub")))),
        row(
            "foo * on(test,blub) group_left bar",
            bin(MUL, foo, bar, on(MANY_TO_ONE, List.of("test", "blub")))),
        row(
            "foo and on(test,blub) bar",
            bin(LAND, foo, bar, on(MANY_TO_MANY, List.of("test", "blub")))),
        row("foo and on() bar", bin(LAND, foo, bar, on(MANY_TO_MANY, List.of()))),
        row(
            "foo and ignoring(test,blub) bar",
            bin(LAND, foo, bar, ignoring(MANY_TO_MANY, List.of("test", "blub")))),
        row("foo and ignoring() bar", bin(LAND, foo, bar, ignoring(MANY_TO_MANY, List.of()))),
        row(
            "foo unless on(bar) baz",
            bin(LUNLESS, foo, vs("baz"), on(MANY_TO_MANY, List.of("bar")))),
        row(
            "foo / on(test,blub) group_left(bar) bar",
            bin(DIV, foo, bar, on(MANY_TO_ONE, List.of("test", "blub"), "bar"))),
        row(
            "foo / ignoring(test,blub) group_left(blub) bar",
            bin(DIV, foo, bar, ignoring(MANY_TO_ONE, List.of("test", "blub"), "blub"))),
        row(
            "foo - on(test,blub) group_right(bar,foo) bar",
            bin(SUB, foo, bar, on(ONE_TO_MANY, List.of("test", "blub"), "bar", "foo"))),
        row(
            "foo * on(a,) group_left(b,) bar",
            bin(MUL, foo, bar, on(MANY_TO_ONE, List.of("a"), "b"))),
        row(
            "foo == bool on(a) bar",
            new BinaryExpr(EQL, foo, bar, on(ONE_TO_ONE, List.of("a")), true)),
        row("1 + on() foo", bin(ADD, num(1), foo)),
        row("foo unless on(start) bar", bin(LUNLESS, foo, bar, on(MANY_TO_MANY, List.of("start")))),
        row("foo unless on(end) bar", bin(LUNLESS, foo, bar, on(MANY_TO_MANY, List.of("end")))),
        row("a + sum", bin(ADD, vs("a"), vs("sum"))),
        // Selectors.
        row("foo", foo),
        row("min", vs("min")),
        row("offset{step=\"1s\"}[5m]", range(vs("offset", Matcher.equal("step", "1s")), 5 * M)),
        row("step{offset=\"1s\"}[5m]", range(vs("step", Matcher.equal("offset", "1s")), 5 * M)),
        row("anchored{job=\"test\"}", vs("anchored", Matcher.equal("job", "test"))),
        row("start", vs("start")),
        row("end", vs("end")),
        row("start{end=\"foo\"}", vs("start", Matcher.equal("end", "foo"))),
        row("SUM", vs("SUM")),
        row("foo:bar{a=\"bc\"}", vs("foo:bar", Matcher.equal("a", "bc"))),
        row("{\"foo\"}", braces(Matcher.metricName("foo"))),
        row(
            "{'foo\\'bar', 'a\\\\dos\\\\path'='boo\\\\urns'}",
            braces(Matcher.equal("a\\dos\\path", "boo\\urns"), Matcher.metricName("foo'bar"))),
        row(
            "{'foo\\'bar', `a\\dos\\path`=\"boo\"}",
            braces(Matcher.equal("a\\dos\\path", "boo"), Matcher.metricName("foo'bar"))),
        row("{\"foo\", a=\"bc\"}", braces(Matcher.metricName("foo"), Matcher.equal("a", "bc"))),
        row(
            "{\"my.metric\", \"label.x\"=\"v\"}",
            braces(Matcher.equal("label.x", "v"), Matcher.metricName("my.metric"))),
        row("foo{NaN='bc'}", vs("foo", Matcher.equal("NaN", "bc"))),
        row("foo{bar='}'}", vs("foo", Matcher.equal("bar", "}"))),
        row(
            "foo{a=\"b\", foo!=\"bar\", test=~\"test\", bar!~\"baz\"}",
            vs(
                "foo",
                Matcher.equal("a", "b"),
                Matcher.notRegex("bar", "baz"),
                Matcher.notEqual("foo", "bar"),
                Matcher.regex("test", "test"))),
        row(
            "foo{a=\"b\", foo!=\"bar\", test=~\"test\", bar!~\"baz\",}",
            vs(
                "foo",
                Matcher.equal("a", "b"),
                Matcher.notRegex("bar", "baz"),
                Matcher.notEqual("foo", "bar"),
                Matcher.regex("test", "test"))),
        row(
            "{__name__=~\"bar\", __name__!~\"baz\"}",
            braces(Matcher.notRegex("__name__", "baz"), Matcher.regex("__name__", "bar"))),
        row(
            "{__name__=\"bar\", __name__=\"baz\"}",
            braces(Matcher.equal("__name__", "bar"), Matcher.equal("__name__", "baz"))),
        row("foo offset 5m", offset(foo, 5 * M)),
        row("foo offset -7m", offset(foo, -7 * M)),
        row("foo OFFSET 1h30m", offset(foo, 90 * M)),
        row("foo OFFSET 1m30ms", offset(foo, M + 30)),
        row("foo offset 5", offset(foo, 5 * S)),
        row("foo offset 5s-8", bin(SUB, offset(foo, 5 * S), num(8))),
        row("foo offset -1^1", bin(POW, offset(foo, -S), num(1))),
        row("foo @ 1603774568", at(foo, AtModifier.at(1603774568000L))),
        row("foo @ -100", at(foo, AtModifier.at(-100000))),
        row("foo @ .3", at(foo, AtModifier.at(300))),
        row("foo @ 3.", at(foo, AtModifier.at(3000))),
        row("foo @ 3.33", at(foo, AtModifier.at(3330))),
        row("foo @ 3.3333", at(foo, AtModifier.at(3333))),
        row("foo @ 3.3335", at(foo, AtModifier.at(3334))),
        row("foo @ 3e2", at(foo, AtModifier.at(300000))),
        row("foo @ 3e-1", at(foo, AtModifier.at(300))),
        row("foo @ 0xA", at(foo, AtModifier.at(10000))),
        row("foo @ -3.3e1", at(foo, AtModifier.at(-33000))),
        row("foo @ 1m", at(foo, AtModifier.at(60000))),
        row("foo @ start()", at(foo, AtModifier.START)),
        row("foo @ end()", at(foo, AtModifier.END)),
        row("foo @ 100 offset 5m", offset(at(foo, AtModifier.at(100000)), 5 * M)),
        row("foo offset 5m @ 100", offset(at(foo, AtModifier.at(100000)), 5 * M)),
        // Range selectors.
        row("test[1000ms]", range(vs("test"), 1000)),
        row("test[1001ms]", range(vs("test"), 1001)),
        row("test[5s]", range(vs("test"), 5 * S)),
        row("test[5m]", range(vs("test"), 5 * M)),
        row("foo[5m30s]", range(foo, 5 * M + 30 * S)),
        row("test[5h] OFFSET 5m", range(offset(vs("test"), 5 * M), 5 * H)),
        row("test[5d] OFFSET 10s", range(offset(vs("test"), 10 * S), 5 * D)),
        row("test[5w] offset 2w", range(offset(vs("test"), 14 * D), 35 * D)),
        row(
            "test{a=\"b\"}[5y] OFFSET 3d",
            range(offset(vs("test", Matcher.equal("a", "b")), 3 * D), 5 * 365 * D)),
        row(
            "test{a=\"b\"}[5m] OFFSET 3600",
            range(offset(vs("test", Matcher.equal("a", "b")), H), 5 * M)),
        row("foo[3ms] @ 2.345", range(at(foo, AtModifier.at(2345)), 3)),
        row("foo[4s180ms] @ 2.345", range(at(foo, AtModifier.at(2345)), 4180)),
        row("foo[4.18] @ 2.345", range(at(foo, AtModifier.at(2345)), 4180)),
        row("foo[4.018] @ 2.345", range(at(foo, AtModifier.at(2345)), 4018)),
        row("test[5]", range(vs("test"), 5 * S)),
        row("foo[ 5m ]", range(foo, 5 * M)),
        row("some_metric[5m] @ 1m", range(at(some, AtModifier.at(60000)), 5 * M)),
        row("test[5y] @ start()", range(at(vs("test"), AtModifier.START), 5 * 365 * D)),
        row("test[5y] @ end()", range(at(vs("test"), AtModifier.END), 5 * 365 * D)),
        // Aggregations.
        row("sum by (foo)(some_metric)", by(AggregateOp.SUM, some, "foo")),
        row("sum by (anchored)(some_metric)", by(AggregateOp.SUM, some, "anchored")),
        row(
            "sum by (\"foo bar\")({\"some.metric\"})",
            by(AggregateOp.SUM, braces(Matcher.metricName("some.metric")), "foo bar")),
        row(
            "sum by (\"foo\", bar, 'baz')({\"some.metric\"})",
            by(AggregateOp.SUM, braces(Matcher.metricName("some.metric")), "foo", "bar", "baz")),
        row("avg by (foo)(some_metric)", by(AggregateOp.AVG, some, "foo")),
        row("max by (foo)(some_metric)", by(AggregateOp.MAX, some, "foo")),
        row("sum without (foo) (some_metric)", without(AggregateOp.SUM, some, "foo")),
        row("sum (some_metric) without (foo)", without(AggregateOp.SUM, some, "foo")),
        row("stddev(some_metric)", agg(AggregateOp.STDDEV, some)),
        row("stdvar by (foo)(some_metric)", by(AggregateOp.STDVAR, some, "foo")),
        row("sum by ()(some_metric)", agg(AggregateOp.SUM, some)),
        row("sum by (foo,bar,)(some_metric)", by(AggregateOp.SUM, some, "foo", "bar")),
        row("sum by (foo,)(some_metric)", by(AggregateOp.SUM, some, "foo")),
        row("SUM BY (x) (foo)", by(AggregateOp.SUM, foo, "x")),
        row("topk(5, some_metric)", param(AggregateOp.TOPK, num(5), some)),
        row("bottomk(5, some_metric)", param(AggregateOp.BOTTOMK, num(5), some)),
        row("quantile(0.9, some_metric)", param(AggregateOp.QUANTILE, num(0.9), some)),
        row(
            "count_values(\"value\", some_metric)",
            param(AggregateOp.COUNT_VALUES, str("value"), some)),
        row("limitk(2, some_metric)", param(AggregateOp.LIMITK, num(2), some)),
        row("limit_ratio(0.5, some_metric)", param(AggregateOp.LIMIT_RATIO, num(0.5), some)),
        row("group(some_metric)", agg(AggregateOp.GROUP, some)),
        row(
            "sum without(and, by, avg, count, alert, annotations)(some_metric)",
            without(AggregateOp.SUM, some, "and", "by", "avg", "count", "alert", "annotations")),
        row("sum(sum)", agg(AggregateOp.SUM, vs("sum"))),
        row("(sum(foo))", paren(agg(AggregateOp.SUM, foo))),
        row("(sum(foo) by (bar))", paren(by(AggregateOp.SUM, foo, "bar"))),
        // Function calls.
        row("time()", call("time")),
        row(
            "floor(some_metric{foo!=\"bar\"})",
            call("floor", vs("some_metric", Matcher.notEqual("foo", "bar")))),
        row("rate(some_metric[5m])", call("rate", range(some, 5 * M))),
        row("round(some_metric)", call("round", some)),
        row("round(some_metric, 5)", call("round", some, num(5))),
        row("label_join(x, \"a\", \",\")", call("label_join", vs("x"), str("a"), str(","))),
        row(
            "label_join(x, \"a\", \",\", \"b\", \"c\")",
            call("label_join", vs("x"), str("a"), str(","), str("b"), str("c"))),
        row("sort_by_label(x, \"a\", \"b\")", call("sort_by_label", vs("x"), str("a"), str("b"))),
        row("start()", call("start")),
        row("end()", call("end")),
        row(
            "info(http_request_counter_total{namespace=\"zzz\"}, {foo=\"bar\", bar=\"baz\"})",
            call(
                "info",
                vs("http_request_counter_total", Matcher.equal("namespace", "zzz")),
                braces(Matcher.equal("bar", "baz"), Matcher.equal("foo", "bar")))),
        row(
            "histogram_quantile(0.9, sum by (le) (rate(x_bucket[5m])))",
            call(
                "histogram_quantile",
                num(0.9),
                by(AggregateOp.SUM, call("rate", range(vs("x_bucket"), 5 * M)), "le"))),
        // Strings.
        row(
            "\"double-quoted string \\\" with escaped quote\"",
            str("double-quoted string \" with escaped quote")),
        row(
            "'single-quoted string \\' with escaped quote'",
            str("single-quoted string ' with escaped quote")),
        row("`backtick-quoted string`", str("backtick-quoted string")),
        row(
            "\"\\a\\b\\f\\n\\r\\t\\v\\\\\\\" - \\u1234\\U00010111\\U0001011111☺\"",
            str("\u0007\b\f\n\r\t\u000b\\\" - \u1234\uD800\uDD11\uD800\uDD1111☺")),
        row("\"\\xc3\\xa9\\303\\251\"", str("éé")),
        row("`\\a\\b`", str("\\a\\b")),
        // Subqueries.
        row(
            "foo{bar=\"baz\"}[10m:6s]",
            subquery(vs("foo", Matcher.equal("bar", "baz")), 10 * M, 6 * S)),
        row(
            "foo{bar=\"baz\"}[10m5s:1h6ms]",
            subquery(vs("foo", Matcher.equal("bar", "baz")), 10 * M + 5 * S, H + 6)),
        row("foo[10m:]", subquery(foo, 10 * M, 0)),
        row(
            "min_over_time(rate(foo{bar=\"baz\"}[2s])[5m:5s])",
            call(
                "min_over_time",
                subquery(
                    call("rate", range(vs("foo", Matcher.equal("bar", "baz")), 2 * S)),
                    5 * M,
                    5 * S))),
        row(
            "min_over_time(rate(foo{bar=\"baz\"}[2s])[5m:] offset 4m)[4m:3s]",
            subquery(
                call(
                    "min_over_time",
                    new SubqueryExpr(
                        call("rate", range(vs("foo", Matcher.equal("bar", "baz")), 2 * S)),
                        5 * M,
                        0,
                        4 * M,
                        null)),
                4 * M,
                3 * S)),
        row(
            "min_over_time(rate(foo{bar=\"baz\"}[2s])[5m:] @ -160377509)[4m:3s]",
            subquery(
                call(
                    "min_over_time",
                    new SubqueryExpr(
                        call("rate", range(vs("foo", Matcher.equal("bar", "baz")), 2 * S)),
                        5 * M,
                        0,
                        0,
                        AtModifier.at(-160377509000L))),
                4 * M,
                3 * S)),
        row(
            "sum without(and, by)(some_metric) [30m:10s]",
            subquery(without(AggregateOp.SUM, some, "and", "by"), 30 * M, 10 * S)),
        row("some_metric OFFSET 1m [10m:5s]", subquery(offset(some, M), 10 * M, 5 * S)),
        row("some_metric @ 123 [10m:5s]", subquery(at(some, AtModifier.at(123000)), 10 * M, 5 * S)),
        row(
            "some_metric @ 123 offset 1m [10m:5s]",
            subquery(offset(at(some, AtModifier.at(123000)), M), 10 * M, 5 * S)),
        row(
            "some_metric[10m:5s] offset 1m @ 123",
            new SubqueryExpr(some, 10 * M, 5 * S, M, AtModifier.at(123000))),
        row(
            "(foo + bar{nm=\"val\"})[5m:]",
            subquery(paren(bin(ADD, foo, vs("bar", Matcher.equal("nm", "val")))), 5 * M, 0)),
        row(
            "(foo + bar{nm=\"val\"})[5m:] offset 10m",
            new SubqueryExpr(
                paren(bin(ADD, foo, vs("bar", Matcher.equal("nm", "val")))),
                5 * M,
                0,
                10 * M,
                null)),
        row("foo[10m:6s] @ start()", new SubqueryExpr(foo, 10 * M, 6 * S, 0, AtModifier.START)),
        row("foo[10m:6s] @ end()", new SubqueryExpr(foo, 10 * M, 6 * S, 0, AtModifier.END)),
        row(
            "rate(foo[5m:1m] offset -1h)",
            call("rate", new SubqueryExpr(foo, 5 * M, M, -H, null))));
  }

  private static Arguments row(String input, Expr expected) {
    return Arguments.of(input, expected);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("cases")
  void parsesToTheExpectedTree(String input, Expr expected) {
    assertThat(PromqlParser.parse(input)).isEqualTo(expected);
  }
}
