/**
 * The three-level dashboard (model, pod, GPU per pod) plus the causal-chain and prefill/decode
 * views, as panel specs over canonical signals ({@link dev.infermon.llm.dashboard.Dashboards}); the
 * compiler to PromQL for the engines present ({@link dev.infermon.llm.dashboard.PromqlCompiler});
 * and the service that runs panels through a QueryBackend and explains empty ones ({@link
 * dev.infermon.llm.dashboard.DashboardService}). Specs and results are immutable; the compiler and
 * service are thread-safe.
 */
package dev.infermon.llm.dashboard;
