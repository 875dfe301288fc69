/**
 * The dashboard's PromQL queries timed on infermon's engine (over its TSDB) and on Prometheus 2.42
 * (over the same data, backfilled with {@code promtool}) in one run: {@link
 * dev.infermon.benchmarks.promql.PromqlVsPrometheus}, driven by {@code
 * bench/promql-vs-prometheus.sh}; and one query's CPU time on infermon's engine alone ({@link
 * dev.infermon.benchmarks.promql.QueryCpuMain}).
 */
package dev.infermon.benchmarks.promql;
