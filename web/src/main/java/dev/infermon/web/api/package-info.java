/**
 * The Prometheus HTTP API ({@code /api/v1/...}) with Prometheus 2.42's JSON: values as Go-formatted
 * strings, timestamps as seconds, parameter parsing and error types. Entry point: {@link
 * dev.infermon.web.api.PrometheusApi}. It also holds what every JSON API of the web module shares,
 * the LLM API included: the envelope ({@link dev.infermon.web.api.Envelope}) and the one error
 * mapping ({@link dev.infermon.web.api.ApiErrors}).
 */
package dev.infermon.web.api;
