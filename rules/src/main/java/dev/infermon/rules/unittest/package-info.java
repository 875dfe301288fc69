/**
 * promtool's rule unit tests ({@code promtool test rules}): {@link
 * dev.infermon.rules.unittest.RuleUnitTester} reads test files (input series in the promqltest
 * series notation, alert and PromQL expectations) and prints promtool's report. One run at a time.
 */
package dev.infermon.rules.unittest;
