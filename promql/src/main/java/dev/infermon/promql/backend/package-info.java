/**
 * The query stack: decorators of {@link dev.infermon.promql.QueryBackend} that schedule queries
 * without changing an answer. {@link dev.infermon.promql.backend.JoiningBackend} lets identical
 * queries in flight share one evaluation, {@link dev.infermon.promql.backend.ParallelBackend}
 * evaluates range queries asked asynchronously on a bounded pool, {@link
 * dev.infermon.promql.backend.CachingBackend} keeps the final steps of range results, final by the
 * bound the evaluator states ({@link dev.infermon.promql.QueryBackend#immutableBefore()}), {@link
 * dev.infermon.promql.backend.RollupBackend} answers kept queries from their stored answers ({@link
 * dev.infermon.promql.backend.Rollups}, written by {@link
 * dev.infermon.promql.backend.RollupWriter}); {@link dev.infermon.promql.backend.QueryStack}
 * composes them once per process (the server's query engine), so the HTTP API, the LLM layer and
 * rules all query through the same stack.
 */
package dev.infermon.promql.backend;
