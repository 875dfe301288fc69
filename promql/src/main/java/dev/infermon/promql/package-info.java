/**
 * PromQL: the parser, the printer, the evaluation engine and the promqltest script runner.
 *
 * <p>This package holds the seam other modules use, {@link dev.infermon.promql.QueryBackend}
 * (embedded: {@link dev.infermon.promql.EmbeddedQueryBackend}; the decorators that schedule queries
 * over it are {@link dev.infermon.promql.backend}), and the errors a query can end with ({@link
 * dev.infermon.promql.QueryException} and its named subclasses).
 */
package dev.infermon.promql;
