/**
 * Beyond one machine: sending samples to Prometheus-compatible clusters ({@link
 * dev.infermon.remote.write}), querying them through the same {@code QueryBackend} seam as the
 * embedded engine ({@link dev.infermon.remote.query}), and running without local storage ({@link
 * dev.infermon.remote.agent}).
 */
package dev.infermon.remote;
