/**
 * The query checks: metric names (the routers' and schedulers' among them, known without being
 * judged), labels, functions, aggregations, the labels a result carries, what a query means (alerts
 * blind to vanished targets, roles picked by pod name, {@code _sum} rates shown as times, gauges
 * never to use) and thresholds against a {@link dev.infermon.lint.checks.Reference} (the catalog
 * alone, or endpoints scraped live, or what is stored), and an SLO's latency threshold against the
 * engines' bucket bounds ({@link dev.infermon.lint.checks.SloCheck}). {@link
 * dev.infermon.lint.checks.Linter} runs them on one expression. Stateless and thread-safe; the
 * per-query scope lives for one check.
 */
package dev.infermon.lint.checks;
