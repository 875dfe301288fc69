package dev.infermon.promql.parser;

import static dev.infermon.promql.parser.ValueType.MATRIX;
import static dev.infermon.promql.parser.ValueType.SCALAR;
import static dev.infermon.promql.parser.ValueType.STRING;
import static dev.infermon.promql.parser.ValueType.VECTOR;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The function table against Prometheus's {@code functions.go}, signature by signature. */
class FunctionsTest {

  static Stream<Arguments> signatures() {
    return Stream.of(
        sig("abs", List.of(VECTOR), 0, VECTOR, false),
        sig("absent_over_time", List.of(MATRIX), 0, VECTOR, false),
        sig("clamp", List.of(VECTOR, SCALAR, SCALAR), 0, VECTOR, false),
        sig("day_of_week", List.of(VECTOR), 1, VECTOR, false),
        sig("double_exponential_smoothing", List.of(MATRIX, SCALAR, SCALAR), 0, VECTOR, true),
        sig("histogram_fraction", List.of(SCALAR, SCALAR, VECTOR), 0, VECTOR, false),
        sig("histogram_quantile", List.of(SCALAR, VECTOR), 0, VECTOR, false),
        sig("label_join", List.of(VECTOR, STRING, STRING, STRING), -1, VECTOR, false),
        sig("label_replace", List.of(VECTOR, STRING, STRING, STRING, STRING), 0, VECTOR, false),
        sig("mad_over_time", List.of(MATRIX), 0, VECTOR, true),
        sig("pi", List.of(), 0, SCALAR, false),
        sig("predict_linear", List.of(MATRIX, SCALAR), 0, VECTOR, false),
        sig("quantile_over_time", List.of(SCALAR, MATRIX), 0, VECTOR, false),
        sig("rate", List.of(MATRIX), 0, VECTOR, false),
        sig("round", List.of(VECTOR, SCALAR), 1, VECTOR, false),
        sig("scalar", List.of(VECTOR), 0, SCALAR, false),
        sig("sort_by_label", List.of(VECTOR, STRING), -1, VECTOR, true),
        sig("time", List.of(), 0, SCALAR, false),
        sig("vector", List.of(SCALAR), 0, VECTOR, false),
        sig("year", List.of(VECTOR), 1, VECTOR, false));
  }

  private static Arguments sig(
      String name, List<ValueType> args, int variadic, ValueType returns, boolean experimental) {
    return Arguments.of(new Function(name, args, variadic, returns, experimental));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("signatures")
  void hasPrometheusSignature(Function expected) {
    assertThat(Functions.get(expected.name())).isEqualTo(expected);
  }

  @Test
  void hasEveryFloatFunctionOfPrometheus3() {
    List<String> names =
        List.of(
            "abs",
            "absent",
            "absent_over_time",
            "acos",
            "acosh",
            "asin",
            "asinh",
            "atan",
            "atanh",
            "avg_over_time",
            "ceil",
            "changes",
            "clamp",
            "clamp_max",
            "clamp_min",
            "cos",
            "cosh",
            "count_over_time",
            "day_of_month",
            "day_of_week",
            "day_of_year",
            "days_in_month",
            "deg",
            "delta",
            "deriv",
            "exp",
            "floor",
            "hour",
            "idelta",
            "increase",
            "irate",
            "label_join",
            "label_replace",
            "last_over_time",
            "ln",
            "log10",
            "log2",
            "mad_over_time",
            "max_over_time",
            "min_over_time",
            "minute",
            "month",
            "pi",
            "predict_linear",
            "present_over_time",
            "quantile_over_time",
            "rad",
            "rate",
            "resets",
            "round",
            "scalar",
            "sgn",
            "sin",
            "sinh",
            "sort",
            "sort_desc",
            "sort_by_label",
            "sort_by_label_desc",
            "sqrt",
            "stddev_over_time",
            "stdvar_over_time",
            "sum_over_time",
            "tan",
            "tanh",
            "time",
            "timestamp",
            "vector",
            "year",
            "double_exponential_smoothing",
            "histogram_quantile",
            "histogram_avg",
            "histogram_count",
            "histogram_sum",
            "histogram_fraction",
            "histogram_stddev",
            "histogram_stdvar");
    for (String n : names) {
      assertThat(Functions.get(n)).as(n).isNotNull();
      assertThat(Functions.get(n).name()).isEqualTo(n);
    }
    assertThat(Functions.all()).hasSizeGreaterThanOrEqualTo(names.size());
  }

  @Test
  void namesAreCaseSensitive() {
    assertThat(Functions.get("RATE")).isNull();
  }

  @Test
  void experimentalFunctionsAreGatedWhenAsked() {
    ParseException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            ParseException.class,
            () ->
                PromqlParser.parse(
                    "mad_over_time(x[5m])", PromqlParser.Options.PROMETHEUS_DEFAULTS));
    assertThat(e.detail()).isEqualTo("function \"mad_over_time\" is not enabled");
    ParseException limitk =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            ParseException.class,
            () -> PromqlParser.parse("limitk(1, x)", PromqlParser.Options.PROMETHEUS_DEFAULTS));
    assertThat(limitk.detail())
        .isEqualTo(
            "limitk() is experimental and must be enabled with"
                + " --enable-feature=promql-experimental-functions");
    assertThat(PromqlParser.parse("mad_over_time(x[5m])")).isInstanceOf(Call.class);
  }
}
