/**
 * Service-level objectives: thresholds checked against bucket bounds ({@link
 * dev.infermon.lint.slo.SloCheck}), recording rules and multi-window multi-burn-rate alerts from
 * bucket ratios ({@link dev.infermon.lint.slo.SloRules}), and the SLO panel's attainment and error
 * budget read from the recorded series ({@link dev.infermon.lint.slo.SloStatus}). Stateless.
 */
package dev.infermon.lint.slo;
