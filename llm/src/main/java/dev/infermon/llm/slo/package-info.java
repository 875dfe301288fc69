/**
 * Service-level objectives, generated from the catalog beside the alert pack: recording rules and
 * multi-window multi-burn-rate alerts from bucket ratios ({@link dev.infermon.llm.slo.SloRules},
 * reached as an export through {@code ExportService}), the SLI sources per engine and which of them
 * measure a threshold exactly ({@link dev.infermon.llm.slo.SliSource}, which lint's {@code
 * SloCheck} judges thresholds with), the burn windows ({@link dev.infermon.llm.slo.BurnWindow}),
 * and the SLO panel read from the recorded series ({@link dev.infermon.llm.slo.SloService} over
 * {@link dev.infermon.llm.slo.SloStatus}). Values are immutable; the service is thread-safe when
 * its backend is.
 */
package dev.infermon.llm.slo;
