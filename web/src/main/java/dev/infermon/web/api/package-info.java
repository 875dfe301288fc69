/**
 * The Prometheus HTTP API ({@code /api/v1/...}) with Prometheus 2.42's JSON: the envelope, values
 * as Go-formatted strings, timestamps as seconds, parameter parsing and error types. Entry point:
 * {@link dev.infermon.web.api.PrometheusApi}.
 */
package dev.infermon.web.api;
