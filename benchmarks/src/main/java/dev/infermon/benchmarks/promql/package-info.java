/**
 * The dashboard's PromQL queries timed on infermon's engine (over its TSDB) and on Prometheus 2.42
 * (over the same data, backfilled with {@code promtool}) in one run: eight hand-picked queries over
 * generated vLLM data ({@link dev.infermon.benchmarks.promql.PromqlVsPrometheus}, driven by {@code
 * bench/promql-vs-prometheus.sh}) and every query of one dashboard load over a simulated fleet's
 * history ({@link dev.infermon.benchmarks.promql.DashboardVsPrometheus}, driven by {@code
 * bench/dashboard-vs-prometheus.sh}), both through {@code SideBySide}; and one query's CPU time on
 * infermon's engine alone ({@link dev.infermon.benchmarks.promql.QueryCpuMain}).
 */
package dev.infermon.benchmarks.promql;
