/**
 * Prometheus rule files as lint input: loaded with the rules module's strict loader, each rule's
 * expression located at its line and column in the file. Immutable values.
 */
package dev.infermon.lint.rulesfile;
