/**
 * Prometheus rule files ({@code model/rulefmt}): {@link dev.infermon.rules.rulefmt.RuleFileParser}
 * reads and validates them into immutable {@link dev.infermon.rules.rulefmt.RuleFile} / {@link
 * dev.infermon.rules.rulefmt.GroupSpec} / {@link dev.infermon.rules.rulefmt.RuleSpec} records, or
 * throws a {@link dev.infermon.rules.rulefmt.RuleFileException} listing every problem with file,
 * line and rule.
 */
package dev.infermon.rules.rulefmt;
