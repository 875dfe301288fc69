/**
 * The three-level dashboard (model, pod, GPU per pod) plus the causal-chain, prefill/decode and
 * router views (the router in front of the engines: {@code RouterQueries}, {@code RouterReasons}):
 * the layout as data ({@code panels.yaml}, read by {@link dev.infermon.llm.dashboard.PanelsLoader}
 * into a {@link dev.infermon.llm.dashboard.DashboardLayout} of levels, sections and panel specs
 * over canonical signals, held by {@link dev.infermon.llm.dashboard.Dashboards}); the compiler to
 * PromQL for the engines present ({@link dev.infermon.llm.dashboard.PromqlCompiler}); and the
 * service that runs panels through a QueryBackend and explains empty ones ({@link
 * dev.infermon.llm.dashboard.DashboardService}). Specs, the layout and results are immutable; the
 * compiler and service are thread-safe.
 */
package dev.infermon.llm.dashboard;
