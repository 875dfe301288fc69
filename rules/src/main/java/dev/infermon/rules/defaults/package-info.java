/**
 * The default alert pack ({@code llm.alerts}): {@link dev.infermon.rules.defaults.DefaultAlertPack}
 * turns the configured thresholds into a Prometheus rule file for vLLM and SGLang metric names.
 */
package dev.infermon.rules.defaults;
