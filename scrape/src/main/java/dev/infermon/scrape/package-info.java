/**
 * Scraping, as Prometheus's {@code scrape} package: the {@link dev.infermon.scrape.ScrapeManager}
 * runs one pool per scrape config and one loop per target; each scrape fetches the page over HTTP
 * (timeout, gzip with a limit on the decompressed size, auth, TLS; plain HTTP on infermon's own
 * HTTP/1.1 client, {@link dev.infermon.scrape.http1.Http1Client}, HTTPS on the JDK's), parses it
 * with {@code textparse}, maps series through the scrape cache (honor_labels, target labels,
 * metric_relabel_configs, limits) and appends them in one storage transaction with the report
 * series and staleness markers. {@link dev.infermon.scrape.TargetRetriever} is what the HTTP API's
 * {@code /api/v1/targets} reads, {@link dev.infermon.scrape.ScrapeMetrics} what infermon counts
 * about itself.
 */
package dev.infermon.scrape;
