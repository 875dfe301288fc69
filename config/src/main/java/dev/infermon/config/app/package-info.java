/**
 * infermon's own configuration sections, beside Prometheus's: {@link
 * dev.infermon.config.app.InferenceConfig} (inference and DCGM discovery), {@link
 * dev.infermon.config.app.StorageConfig} (embedded, remote or agent), {@link
 * dev.infermon.config.app.LlmConfig} (alert pack thresholds, dashboard quantiles, SLOs), {@link
 * dev.infermon.config.app.UiConfig} and {@link dev.infermon.config.app.WebConfig}. Immutable
 * records with named defaults.
 */
package dev.infermon.config.app;
