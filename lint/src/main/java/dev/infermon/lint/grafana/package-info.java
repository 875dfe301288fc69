/**
 * Grafana dashboards as lint input: every Prometheus target of every panel (rows and nested panels
 * included), template variables replaced by placeholders that parse, each located at its line and
 * at dashboard, panel title and refId. Immutable values; stateless readers.
 */
package dev.infermon.lint.grafana;
