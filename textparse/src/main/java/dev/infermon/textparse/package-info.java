/**
 * Streaming pull parsers for the Prometheus text format (0.0.4, and 1.0.0's quoted UTF-8 names) and
 * OpenMetrics 1.0, in the shape of Prometheus's {@code model/textparse}.
 */
package dev.infermon.textparse;
