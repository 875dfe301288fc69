/**
 * infermon's HTTP/1.1 client for plain-HTTP scrapes, {@link dev.infermon.scrape.http1.Http1Client}:
 * one keep-alive connection per target over {@link java.net.Socket}, Prometheus's scrape request,
 * one deadline per exchange, redirects as Go's client follows them. It depends on nothing in the
 * scrape package; the scrape package adapts it to its {@code Scraper} seam and does the status
 * check and decompression.
 */
package dev.infermon.scrape.http1;
