/**
 * HTTP clients for remote endpoints from prometheus/common-style {@code HttpClientConfig}: TLS,
 * redirects, HTTP/2, basic and bearer authorization, custom headers. Thread-safe.
 */
package dev.infermon.remote.http;
