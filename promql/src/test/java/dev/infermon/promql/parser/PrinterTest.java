package dev.infermon.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Matcher;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The printer's canonical form, as a table of input → output (Prometheus's {@code String()} form),
 * and parse → print → parse giving the same tree for each.
 */
class PrinterTest {

  static Stream<Arguments> canonical() {
    return Stream.of(
        row("sum by() (task:errors:rate10s{job=\"s\"})", "sum(task:errors:rate10s{job=\"s\"})"),
        row(
            "sum by(code) (task:errors:rate10s{job=\"s\"})",
            "sum by (code) (task:errors:rate10s{job=\"s\"})"),
        row(
            "sum without() (task:errors:rate10s{job=\"s\"})",
            "sum without () (task:errors:rate10s{job=\"s\"})"),
        row(
            "sum without(instance) (task:errors:rate10s{job=\"s\"})",
            "sum without (instance) (task:errors:rate10s{job=\"s\"})"),
        row("SUM(x) BY (a, b)", "sum by (a, b) (x)"),
        row("topk(5, task:errors:rate10s{job=\"s\"})", "topk(5, task:errors:rate10s{job=\"s\"})"),
        row(
            "count_values(\"value\", task:errors:rate10s{job=\"s\"})",
            "count_values(\"value\", task:errors:rate10s{job=\"s\"})"),
        row("a - on() c", "a - on () c"),
        row("a - on(b) c", "a - on (b) c"),
        row("a - on(b) group_left(x) c", "a - on (b) group_left (x) c"),
        row("a - on(b) group_left(x, y) c", "a - on (b) group_left (x, y) c"),
        row("a - on(b) group_left c", "a - on (b) group_left () c"),
        row("a - on(b) group_left() (c)", "a - on (b) group_left () (c)"),
        row("a - ignoring(b) c", "a - ignoring (b) c"),
        row("a - ignoring() c", "a - c"),
        row("a - ignoring() group_left c", "a - ignoring () group_left () c"),
        row("a and ignoring() b", "a and b"),
        row("up > bool 0", "up > bool 0"),
        row("1 == bool 2", "1 == bool 2"),
        row("a offset 1m", "a offset 1m"),
        row("a offset -7m", "a offset -7m"),
        row("a offset 90", "a offset 1m30s"),
        row("a{c=\"d\"}[5m] offset 1m", "a{c=\"d\"}[5m] offset 1m"),
        row("a[5m] offset 1m", "a[5m] offset 1m"),
        row("a[12m] offset -3m", "a[12m] offset -3m"),
        row("a[1h:5m] offset 1m", "a[1h:5m] offset 1m"),
        row("a[1h:] offset 1m", "a[1h:] offset 1m"),
        row("{__name__=\"a\"}", "{__name__=\"a\"}"),
        row("a{b!=\"c\"}[1m]", "a{b!=\"c\"}[1m]"),
        row("a{b=~\"c\"}[1m]", "a{b=~\"c\"}[1m]"),
        row("a{b!~\"c\"}[1m]", "a{b!~\"c\"}[1m]"),
        row("a @ 10", "a @ 10.000"),
        row("a[1m] @ 10", "a[1m] @ 10.000"),
        row("a @ start()", "a @ start()"),
        row("a @ end()", "a @ end()"),
        row("a[1m] @ start()", "a[1m] @ start()"),
        row("a[1m] @ end()", "a[1m] @ end()"),
        row("a offset 5m @ 1.5", "a @ 1.500 offset 5m"),
        row("a[5m:1m] offset 1m @ 3", "a[5m:1m] @ 3.000 offset 1m"),
        row("foo{z=\"1\", a=\"2\"}", "foo{a=\"2\",z=\"1\"}"),
        row("{\"my.metric\", \"label.x\"=\"v\"}", "{\"label.x\"=\"v\",__name__=\"my.metric\"}"),
        row("sum by (\"a.b\", c) (x)", "sum by (\"a.b\", c) (x)"),
        row("sum by (\"without\") (x)", "sum by (\"without\") (x)"),
        row("sum by (by, on) (x)", "sum by (by, on) (x)"),
        row("x{a=\"\\n\\\"é\\u0001\"}", "x{a=\"\\n\\\"é\\x01\"}"),
        row("'single'", "\"single\""),
        row("`raw\\n`", "\"raw\\\\n\""),
        row("1e3", "1000"),
        row("1.5e-7", "0.00000015"),
        row("0x10", "16"),
        row("-0", "-0"),
        row("Inf", "+Inf"),
        row("Inf ^ 2", "Inf ^ 2"), // not "+Inf ^ 2", which reads as "+(Inf ^ 2)"
        row("-Inf ^ 2", "-Inf ^ 2"),
        row("-inf", "-Inf"),
        row("nan", "NaN"),
        row("1h", "3600"),
        row("rate(x[5m])", "rate(x[5m])"),
        row("rate(x[300])", "rate(x[5m])"),
        row("rate(x[90m])", "rate(x[1h30m])"),
        row("rate(x[1.5])", "rate(x[1s500ms])"),
        row("rate(x[14d])", "rate(x[2w])"),
        row("rate(x[15d])", "rate(x[15d])"),
        row("rate(x[365d])", "rate(x[1y])"),
        row("rate(x[366d])", "rate(x[366d])"),
        row("(a + b) * c", "(a + b) * c"),
        row("a + b * c", "a + b * c"),
        row("-a ^ 2", "-a ^ 2"),
        row("(-a) ^ 2", "(-a) ^ 2"),
        row("2 ^ 3 ^ 4", "2 ^ 3 ^ 4"),
        row("(2 ^ 3) ^ 4", "(2 ^ 3) ^ 4"),
        row("a - (b - c)", "a - (b - c)"),
        row("1 - -1", "1 - -1"),
        row("x atan2 y", "x atan2 y"),
        row(
            "histogram_quantile(0.99, sum by (le) (rate(vllm:time_to_first_token_seconds_bucket[5m])))",
            "histogram_quantile(0.99, sum by (le) (rate(vllm:time_to_first_token_seconds_bucket[5m])))"),
        row("label_join(x, \"a\", \",\", \"b\")", "label_join(x, \"a\", \",\", \"b\")"),
        row("min_over_time(rate(x[1m])[10m:1m])", "min_over_time(rate(x[1m])[10m:1m])"),
        row("# comment\nfoo # trailing", "foo"));
  }

  private static Arguments row(String input, String output) {
    return Arguments.of(input, output);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("canonical")
  void printsCanonicalFormThatParsesBackToTheSameTree(String input, String output) {
    Expr parsed = PromqlParser.parse(input);
    String printed = Printer.print(parsed);
    assertThat(printed).isEqualTo(output);
    assertThat(PromqlParser.parse(printed)).isEqualTo(parsed);
  }

  @Test
  void addsParenthesesATreeNeedsButDoesNotHave() {
    VectorSelector a = Ast.vs("a");
    VectorSelector b = Ast.vs("b");
    VectorSelector c = Ast.vs("c");
    Expr sumTimesC = Ast.bin(BinaryOp.MUL, Ast.bin(BinaryOp.ADD, a, b), c);
    Expr negOfSum = Ast.neg(Ast.bin(BinaryOp.ADD, a, b));
    Expr subqueryOfSum = Ast.subquery(Ast.bin(BinaryOp.ADD, a, b), 300_000, 0);
    Expr negNumberPow = Ast.bin(BinaryOp.POW, Ast.num(-2), Ast.num(2));

    assertThat(Printer.print(sumTimesC)).isEqualTo("(a + b) * c");
    assertThat(Printer.print(negOfSum)).isEqualTo("-(a + b)");
    assertThat(Printer.print(subqueryOfSum)).isEqualTo("(a + b)[5m:]");
    assertThat(Printer.print(negNumberPow)).isEqualTo("(-2) ^ 2");
  }

  @Test
  void printsStepInvariantExpressionsAsTheirContent() {
    Expr inner = Ast.at(Ast.vs("a"), AtModifier.at(10_000));
    assertThat(Printer.print(new StepInvariantExpr(inner))).isEqualTo("a @ 10.000");
  }

  @Test
  void omitsTheImpliedNameMatcherButKeepsAnExplicitEmptyName() {
    VectorSelector named = Ast.vs("up", Matcher.equal("job", "x"));
    VectorSelector emptyName =
        new VectorSelector(
            null, List.of(Matcher.equal("__name__", ""), Matcher.equal("a", "b")), 0, null);
    assertThat(Printer.print(named)).isEqualTo("up{job=\"x\"}");
    assertThat(Printer.print(emptyName)).isEqualTo("{__name__=\"\",a=\"b\"}");
  }
}
