/**
 * Text helpers that make infermon's output read like Prometheus's: Go's quoting ({@code %q}) and
 * Go's shortest-digit float formatting.
 */
package dev.infermon.model.text;
