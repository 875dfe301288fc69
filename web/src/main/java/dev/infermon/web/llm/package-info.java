/**
 * The LLM layer's HTTP API under {@code /api/v1/llm}: the dashboard (all panels, or one), the
 * inventory of inference targets, the catalog's metric names, and the Grafana and alert-rule
 * exports. {@link dev.infermon.web.llm.LlmApi} registers the routes; {@code DashboardParams} turns
 * query parameters into a {@link dev.infermon.llm.dashboard.DashboardRequest}; {@code LlmJson}
 * writes the JSON. The shapes are documented in docs/http-api.md.
 */
package dev.infermon.web.llm;
