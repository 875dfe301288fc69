/**
 * Lint, diagnosis and SLOs for LLM inference monitoring: the values every part shares ({@link
 * dev.infermon.lint.Finding}, {@link dev.infermon.lint.Location}, {@link
 * dev.infermon.lint.CheckId}, {@link dev.infermon.lint.LintQuery}). Sub-packages: {@code checks}
 * (the query checks and the reference they run against), {@code rulesfile} and {@code grafana}
 * (inputs), {@code run} (a lint run over inputs), {@code report} (text, JSON, SARIF), {@code
 * diagnosis}, {@code slo}. Everything reads the store through {@code QueryBackend} only. Values are
 * immutable and thread-safe.
 */
package dev.infermon.lint;
