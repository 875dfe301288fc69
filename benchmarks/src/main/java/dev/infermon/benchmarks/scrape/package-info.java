/**
 * End-to-end scrape cost, infermon beside Prometheus 2.42 and VictoriaMetrics on the same simulated
 * fleet: {@link dev.infermon.benchmarks.scrape.ScrapeVsPeers} measures the running processes from
 * the outside ({@code /proc}, their own counters and their APIs); {@code bench/scrape-vs-peers.sh}
 * starts them. {@link dev.infermon.benchmarks.scrape.ScrapeIngestCpuMain} times the
 * parse-and-append half alone, without HTTP, by thread CPU.
 */
package dev.infermon.benchmarks.scrape;
