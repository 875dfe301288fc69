/**
 * The PromQL evaluation engine, with Prometheus 3 semantics for float samples.
 *
 * <p>{@link dev.infermon.promql.engine.Engine} is the entry point: it takes a parsed expression, a
 * {@link dev.infermon.storage.Queryable} and a time (range) and returns a {@link
 * dev.infermon.promql.engine.QueryResult}. Internally every node evaluates to a matrix over the
 * query's steps ({@code EvalSeries}), as in Prometheus's {@code engine.go}; the code is split by
 * concern: {@code Evaluator} (dispatch, selectors, subqueries, step invariance), {@code
 * BinaryOperations}, {@code Aggregations} (with {@code SeriesFold} and {@code TopK}), {@code
 * InstantFunctions}, {@code RangeFunctions} (with {@code WindowFunctions}), {@code
 * HistogramFunctions} and {@code Preprocessor}.
 *
 * <p>Errors: caller mistakes are {@link java.lang.IllegalArgumentException}; evaluation failures
 * are {@link dev.infermon.promql.QueryException} subclasses with Prometheus's messages; non-fatal
 * findings are {@link dev.infermon.promql.value.Annotations} beside the result.
 */
package dev.infermon.promql.engine;
