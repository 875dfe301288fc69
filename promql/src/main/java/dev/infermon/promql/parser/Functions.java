package dev.infermon.promql.parser;

import static dev.infermon.promql.parser.ValueType.MATRIX;
import static dev.infermon.promql.parser.ValueType.SCALAR;
import static dev.infermon.promql.parser.ValueType.STRING;
import static dev.infermon.promql.parser.ValueType.VECTOR;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every PromQL function with its signature, transcribed from Prometheus 3's {@code
 * promql/parser/functions.go}. Names are case-sensitive, as in Prometheus ({@code RATE(x[5m])} is
 * an unknown function). Functions Prometheus gates behind {@code
 * --enable-feature=promql-experimental-functions} are flagged {@link Function#experimental()};
 * {@code start}, {@code end}, {@code step} and {@code range} exist only for Prometheus's
 * experimental duration expressions (the lexer reads those words as keywords, so they cannot be
 * called here).
 *
 * <p>{@code min_of}, {@code max_of} and {@code start_timestamp} are newer than the stored copy of
 * {@code functions.go}; their signatures are taken from Prometheus's test scripts ({@code
 * functions.test}, {@code start_timestamps.test}), which call them as {@code min_of(3, 5)} and
 * {@code start_timestamp(series * 1)}.
 *
 * <p>Immutable and thread-safe.
 */
public final class Functions {
  private static final Map<String, Function> BY_NAME = build();

  private Functions() {}

  /** The function with this exact name, or null. */
  public static Function get(String name) {
    return BY_NAME.get(name);
  }

  /** All functions, sorted by name. */
  public static Collection<Function> all() {
    return BY_NAME.values();
  }

  private static Map<String, Function> build() {
    Map<String, Function> t = new TreeMap<>();
    add(t, "abs", List.of(VECTOR), 0, VECTOR, false);
    add(t, "absent", List.of(VECTOR), 0, VECTOR, false);
    add(t, "absent_over_time", List.of(MATRIX), 0, VECTOR, false);
    add(t, "acos", List.of(VECTOR), 0, VECTOR, false);
    add(t, "acosh", List.of(VECTOR), 0, VECTOR, false);
    add(t, "asin", List.of(VECTOR), 0, VECTOR, false);
    add(t, "asinh", List.of(VECTOR), 0, VECTOR, false);
    add(t, "atan", List.of(VECTOR), 0, VECTOR, false);
    add(t, "atanh", List.of(VECTOR), 0, VECTOR, false);
    add(t, "avg_over_time", List.of(MATRIX), 0, VECTOR, false);
    add(t, "ceil", List.of(VECTOR), 0, VECTOR, false);
    add(t, "changes", List.of(MATRIX), 0, VECTOR, false);
    add(t, "clamp", List.of(VECTOR, SCALAR, SCALAR), 0, VECTOR, false);
    add(t, "clamp_max", List.of(VECTOR, SCALAR), 0, VECTOR, false);
    add(t, "clamp_min", List.of(VECTOR, SCALAR), 0, VECTOR, false);
    add(t, "cos", List.of(VECTOR), 0, VECTOR, false);
    add(t, "cosh", List.of(VECTOR), 0, VECTOR, false);
    add(t, "count_over_time", List.of(MATRIX), 0, VECTOR, false);
    add(t, "day_of_month", List.of(VECTOR), 1, VECTOR, false);
    add(t, "day_of_week", List.of(VECTOR), 1, VECTOR, false);
    add(t, "day_of_year", List.of(VECTOR), 1, VECTOR, false);
    add(t, "days_in_month", List.of(VECTOR), 1, VECTOR, false);
    add(t, "deg", List.of(VECTOR), 0, VECTOR, false);
    add(t, "delta", List.of(MATRIX), 0, VECTOR, false);
    add(t, "deriv", List.of(MATRIX), 0, VECTOR, false);
    add(t, "double_exponential_smoothing", List.of(MATRIX, SCALAR, SCALAR), 0, VECTOR, true);
    add(t, "end", List.of(), 0, SCALAR, true);
    add(t, "exp", List.of(VECTOR), 0, VECTOR, false);
    add(t, "first_over_time", List.of(MATRIX), 0, VECTOR, true);
    add(t, "floor", List.of(VECTOR), 0, VECTOR, false);
    add(t, "histogram_avg", List.of(VECTOR), 0, VECTOR, false);
    add(t, "histogram_count", List.of(VECTOR), 0, VECTOR, false);
    add(t, "histogram_fraction", List.of(SCALAR, SCALAR, VECTOR), 0, VECTOR, false);
    add(t, "histogram_quantile", List.of(SCALAR, VECTOR), 0, VECTOR, false);
    add(t, "histogram_quantiles", List.of(VECTOR, STRING, SCALAR, SCALAR), 9, VECTOR, true);
    add(t, "histogram_stddev", List.of(VECTOR), 0, VECTOR, false);
    add(t, "histogram_stdvar", List.of(VECTOR), 0, VECTOR, false);
    add(t, "histogram_sum", List.of(VECTOR), 0, VECTOR, false);
    add(t, "hour", List.of(VECTOR), 1, VECTOR, false);
    add(t, "idelta", List.of(MATRIX), 0, VECTOR, false);
    add(t, "increase", List.of(MATRIX), 0, VECTOR, false);
    add(t, "info", List.of(VECTOR, VECTOR), 1, VECTOR, true);
    add(t, "integral", List.of(MATRIX, SCALAR), 1, VECTOR, true);
    add(t, "irate", List.of(MATRIX), 0, VECTOR, false);
    add(t, "label_join", List.of(VECTOR, STRING, STRING, STRING), -1, VECTOR, false);
    add(t, "label_replace", List.of(VECTOR, STRING, STRING, STRING, STRING), 0, VECTOR, false);
    add(t, "last_over_time", List.of(MATRIX), 0, VECTOR, false);
    add(t, "ln", List.of(VECTOR), 0, VECTOR, false);
    add(t, "log10", List.of(VECTOR), 0, VECTOR, false);
    add(t, "log2", List.of(VECTOR), 0, VECTOR, false);
    add(t, "mad_over_time", List.of(MATRIX), 0, VECTOR, true);
    add(t, "max_over_time", List.of(MATRIX), 0, VECTOR, false);
    add(t, "min_over_time", List.of(MATRIX), 0, VECTOR, false);
    add(t, "max_of", List.of(SCALAR, SCALAR), 0, SCALAR, true);
    add(t, "min_of", List.of(SCALAR, SCALAR), 0, SCALAR, true);
    add(t, "minute", List.of(VECTOR), 1, VECTOR, false);
    add(t, "month", List.of(VECTOR), 1, VECTOR, false);
    add(t, "pi", List.of(), 0, SCALAR, false);
    add(t, "predict_linear", List.of(MATRIX, SCALAR), 0, VECTOR, false);
    add(t, "present_over_time", List.of(MATRIX), 0, VECTOR, false);
    add(t, "quantile_over_time", List.of(SCALAR, MATRIX), 0, VECTOR, false);
    add(t, "rad", List.of(VECTOR), 0, VECTOR, false);
    add(t, "range", List.of(), 0, SCALAR, true);
    add(t, "rate", List.of(MATRIX), 0, VECTOR, false);
    add(t, "resets", List.of(MATRIX), 0, VECTOR, false);
    add(t, "round", List.of(VECTOR, SCALAR), 1, VECTOR, false);
    add(t, "scalar", List.of(VECTOR), 0, SCALAR, false);
    add(t, "sgn", List.of(VECTOR), 0, VECTOR, false);
    add(t, "sin", List.of(VECTOR), 0, VECTOR, false);
    add(t, "sinh", List.of(VECTOR), 0, VECTOR, false);
    add(t, "sort", List.of(VECTOR), 0, VECTOR, false);
    add(t, "sort_by_label", List.of(VECTOR, STRING), -1, VECTOR, true);
    add(t, "sort_by_label_desc", List.of(VECTOR, STRING), -1, VECTOR, true);
    add(t, "sort_desc", List.of(VECTOR), 0, VECTOR, false);
    add(t, "sqrt", List.of(VECTOR), 0, VECTOR, false);
    add(t, "start", List.of(), 0, SCALAR, true);
    add(t, "start_timestamp", List.of(VECTOR), 0, VECTOR, true);
    add(t, "stddev_over_time", List.of(MATRIX), 0, VECTOR, false);
    add(t, "stdvar_over_time", List.of(MATRIX), 0, VECTOR, false);
    add(t, "step", List.of(), 0, SCALAR, true);
    add(t, "sum_over_time", List.of(MATRIX), 0, VECTOR, false);
    add(t, "tan", List.of(VECTOR), 0, VECTOR, false);
    add(t, "tanh", List.of(VECTOR), 0, VECTOR, false);
    add(t, "time", List.of(), 0, SCALAR, false);
    add(t, "timestamp", List.of(VECTOR), 0, VECTOR, false);
    add(t, "ts_of_first_over_time", List.of(MATRIX), 0, VECTOR, true);
    add(t, "ts_of_last_over_time", List.of(MATRIX), 0, VECTOR, true);
    add(t, "ts_of_max_over_time", List.of(MATRIX), 0, VECTOR, true);
    add(t, "ts_of_min_over_time", List.of(MATRIX), 0, VECTOR, true);
    add(t, "vector", List.of(SCALAR), 0, VECTOR, false);
    add(t, "year", List.of(VECTOR), 1, VECTOR, false);
    return Collections.unmodifiableMap(t);
  }

  private static void add(
      Map<String, Function> t,
      String name,
      List<ValueType> args,
      int variadic,
      ValueType returns,
      boolean experimental) {
    t.put(name, new Function(name, args, variadic, returns, experimental));
  }
}
