/**
 * Relabeling with Prometheus semantics ({@code model/relabel} in Prometheus).
 *
 * <p>{@link dev.infermon.model.relabel.RelabelConfig} is one validated step (action, source labels,
 * separator, regex, modulus, target label, replacement); {@link
 * dev.infermon.model.relabel.Relabel#process} applies a list of steps to a {@link
 * dev.infermon.model.labels.Labels} and returns the result, or null when the label set is dropped.
 * Regexes are written in RE2 syntax and translated to {@code java.util.regex} by {@link
 * dev.infermon.model.relabel.RelabelRegex}, which also expands {@code $1}, {@code ${1}} and {@code
 * $name} as Go's {@code Regexp.Expand} does. Everything here is immutable or stateless, so it is
 * safe to share between threads.
 */
package dev.infermon.model.relabel;
