/**
 * Exports: the dashboard as Grafana JSON ({@link dev.infermon.llm.export.GrafanaDashboard}), and
 * the default alert pack generated from the catalog ({@link dev.infermon.llm.export.AlertPack}) as
 * a Prometheus rule file or a PrometheusRule resource ({@link dev.infermon.llm.export.RuleFiles}).
 * Stateless; thread-safe.
 */
package dev.infermon.llm.export;
