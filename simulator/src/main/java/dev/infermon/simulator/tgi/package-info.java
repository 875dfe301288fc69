/**
 * Hugging Face TGI's router page: {@link dev.infermon.simulator.tgi.TgiMetrics} counts what the
 * router's source records and when, {@link dev.infermon.simulator.tgi.TgiPage} writes it in the
 * form of the Rust metrics-exporter-prometheus crate.
 */
package dev.infermon.simulator.tgi;
