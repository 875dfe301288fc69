/**
 * The remote query backend: {@link dev.infermon.remote.query.RemoteQueryBackend} answers the {@code
 * QueryBackend} seam from a Prometheus-compatible HTTP API, so dashboards, lint, diagnosis and
 * rules run unchanged against a cluster ({@code storage.mode: remote}).
 */
package dev.infermon.remote.query;
