/**
 * Exports, reached through {@link dev.infermon.llm.export.ExportService}: the dashboard as Grafana
 * JSON ({@link dev.infermon.llm.export.GrafanaDashboard}), the default alert pack generated from
 * the catalog ({@link dev.infermon.llm.export.AlertPack}) as a Prometheus rule file or a
 * PrometheusRule resource ({@link dev.infermon.llm.export.RuleFiles}), and the SLO rules of the
 * {@code slo} package. Stateless; thread-safe.
 */
package dev.infermon.llm.export;
