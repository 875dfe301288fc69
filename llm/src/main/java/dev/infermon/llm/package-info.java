/**
 * The LLM layer: engine catalog, canonical signals, inventory, dashboard, diagnosis, SLOs and
 * exports. It speaks PromQL through {@code dev.infermon.promql.QueryBackend} only, so everything
 * here works against the embedded engine or a remote Prometheus-compatible API.
 *
 * <p>Packages read one way (ArchitectureTest): {@code signals} → {@code catalog} → {@code
 * inventory} → {@code dashboard} → {@code diagnosis}, {@code export}; {@code catalog} → {@code slo}
 * → {@code export}. The front doors are the services: {@code InventoryService} (the one inventory
 * cache), {@code DashboardService}, {@code DiagnosisService}, {@code SloService} and {@code
 * ExportService}; callers outside the LLM layer use them and the immutable values they take and
 * return. This package holds what every service shares: {@link
 * dev.infermon.llm.BadParameterException}.
 */
package dev.infermon.llm;
