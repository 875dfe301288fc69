/**
 * infermon's HTTP server ({@link dev.infermon.web.WebServer}): the Prometheus HTTP API with
 * Prometheus's JSON, the remote-write receiver, infermon's own metrics on {@code /metrics},
 * authentication, TLS and request limits. It sees the rest of the process only through the promql
 * {@code QueryBackend}, the storage {@code Appendable}, and the retrievers in {@link
 * dev.infermon.web.retrieval}, all handed over in {@link dev.infermon.web.WebServices}.
 */
package dev.infermon.web;
