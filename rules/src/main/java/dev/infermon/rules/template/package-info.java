/**
 * A Go {@code text/template} engine for alert templates, with Prometheus's template functions
 * ({@code template/template.go}). {@link dev.infermon.rules.template.Template#parse} checks a
 * template when the rule file loads; {@link dev.infermon.rules.template.Template#execute} runs it
 * against {@link dev.infermon.rules.template.AlertData} or any value. Parsed templates are
 * immutable and thread-safe; an execution runs on the caller's thread.
 */
package dev.infermon.rules.template;
