/**
 * Lint for LLM inference monitoring: rule files, Grafana dashboards and PromQL checked against what
 * endpoints expose. {@link dev.infermon.lint.LintService} is the front door ({@code infermon lint},
 * {@code /api/v1/llm/lint}); this package also holds the values every part shares ({@link
 * dev.infermon.lint.Finding}, {@link dev.infermon.lint.Location}, {@link
 * dev.infermon.lint.CheckId}, {@link dev.infermon.lint.LintQuery}). Sub-packages: {@code checks}
 * (the query checks, the SLO threshold check, and the reference they run against), {@code
 * rulesfile} and {@code grafana} (inputs), {@code run} (a lint run over inputs), {@code report}
 * (text, JSON, SARIF). The stored reference comes from the llm module's shared inventory, through
 * {@code QueryBackend} only. Values are immutable and thread-safe.
 */
package dev.infermon.lint;
