/**
 * Text helpers every module shares: Go's quoting ({@code %q}) and Go's shortest-digit float
 * formatting, which make infermon's output read like Prometheus's, and the one "did you mean"
 * ({@link dev.infermon.model.text.Suggest}) for configuration keys and lint's names.
 */
package dev.infermon.model.text;
