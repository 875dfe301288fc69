/**
 * What other modules borrow from promql's tests, shipped in the promql test-jar (only this
 * package): {@link dev.infermon.promql.testing.PrometheusProcess}, a real Prometheus 2.42 started
 * for a test or a benchmark.
 */
package dev.infermon.promql.testing;
