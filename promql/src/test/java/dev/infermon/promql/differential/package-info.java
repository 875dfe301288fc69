/**
 * The differential test: the same seeded, vLLM-shaped data loaded into infermon's engine and into a
 * real Prometheus 2.42 ({@code /usr/bin/prometheus}, backfilled with {@code promtool}), and a
 * generated table of range queries compared between the two.
 */
package dev.infermon.promql.differential;
