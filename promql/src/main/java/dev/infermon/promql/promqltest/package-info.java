/**
 * A runner for Prometheus's {@code promqltest} script language ({@code load}, {@code clear}, {@code
 * eval instant}, {@code eval range}, {@code expect ...}), so Prometheus's own scripts and the
 * project's {@code .test} corpus run against the embedded engine.
 *
 * <p>{@link dev.infermon.promql.promqltest.ScriptParser} turns a script into commands; a {@link
 * dev.infermon.promql.promqltest.Session} runs them in order against a fresh storage, one eval at a
 * time, with the harness behaviour of Prometheus's {@code test.go}: every instant eval is re-run
 * with {@code @} pinned at several times and as a range query around its time. The runner has no
 * test-framework dependency; failures are {@link dev.infermon.promql.promqltest.ScriptFailure}s
 * naming the file and line.
 */
package dev.infermon.promql.promqltest;
