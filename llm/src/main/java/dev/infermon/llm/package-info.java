/**
 * The LLM layer: engine catalog, canonical signals, inventory, dashboard and exports. It speaks
 * PromQL through {@code dev.infermon.promql.QueryBackend} only, so everything here works against
 * the embedded engine or a remote Prometheus-compatible API.
 */
package dev.infermon.llm;
