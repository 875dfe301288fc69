/**
 * HTTP clients from prometheus/common-style {@code HttpClientConfig}, shared by every module that
 * makes requests with one (scrape, remote write, remote query): {@link
 * dev.infermon.config.http.HttpClients} builds the JDK client (TLS, redirects, HTTP/2), {@link
 * dev.infermon.config.http.RequestAuth} the per-request headers (basic and bearer authorization,
 * custom headers). JDK {@code java.net.http} only. Thread-safe.
 */
package dev.infermon.config.http;
