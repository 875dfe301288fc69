/**
 * Label sets and label matchers with Prometheus semantics.
 *
 * <p>A {@link dev.infermon.model.labels.Labels} is an immutable set of name/value pairs sorted by
 * name; the metric name is the label {@code __name__}. Labels with an empty value do not exist (as
 * in Prometheus), so the builder drops them. {@link dev.infermon.model.labels.Matcher} implements
 * {@code =}, {@code !=}, {@code =~} and {@code !~} with fully anchored regular expressions.
 */
package dev.infermon.model.labels;
