/**
 * The LLM layer's HTTP API under {@code /api/v1/llm}, the whole web side of the LLM layer: the
 * dashboard (all panels, or one), the inventory of inference targets, the catalog's metric names
 * and families, * the Grafana and alert-rule exports ({@link dev.infermon.web.llm.LlmApi}), and
 * lint, diagnosis and the SLO panel ({@link dev.infermon.web.llm.LlmLintApi}), an alert's incident
 * ({@link dev.infermon.web.llm.IncidentApi}), efficiency and cost ({@link
 * dev.infermon.web.llm.LlmEfficiencyApi}). Thin adapters: {@code DashboardParams} turns query
 * parameters into a {@link dev.infermon.llm.dashboard.DashboardRequest}, the llm and lint modules'
 * services decide everything else, {@code LlmJson} and {@code CatalogJson} write the {@code data};
 * the envelope and the error mapping are the web module's one ({@code LlmRoutes} over {@link
 * dev.infermon.web.api.ApiErrors}). The shapes are documented in docs/http-api.md.
 */
package dev.infermon.web.llm;
