/**
 * End-to-end scrape cost, infermon beside Prometheus 2.42 on the same simulated fleet: {@link
 * dev.infermon.benchmarks.scrape.ScrapeVsPrometheus} measures two running processes from the
 * outside ({@code /proc} and their own counters); {@code bench/scrape-vs-prometheus.sh} starts
 * them. {@link dev.infermon.benchmarks.scrape.ScrapeIngestCpuMain} times the parse-and-append half
 * alone, without HTTP, by thread CPU.
 */
package dev.infermon.benchmarks.scrape;
