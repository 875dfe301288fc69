/**
 * Serves a simulated fleet over HTTP on 127.0.0.1 with the JDK's {@code HttpServer}: each target's
 * {@code /metrics} (one port per target, as real scrapers expect, or one port with {@code
 * /pods/<name>/metrics}), gzip when the client asks, and a control port with {@code GET
 * /-/inventory} and {@code POST /-/scenario?name=...&pod=...}. Also prints the fleet as a
 * Prometheus file_sd list or scrape config ({@link dev.infermon.simulator.http.InventoryFormats}).
 * {@link dev.infermon.simulator.http.ReplayServer} serves replayed captures the same way.
 */
package dev.infermon.simulator.http;
