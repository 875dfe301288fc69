/**
 * What other modules borrow from the rules module's tests, shipped in the rules test-jar (only this
 * package): {@link dev.infermon.rules.testing.RuleUnitFiles}, which runs promtool-format rule unit
 * tests under infermon's runner and under the real {@code promtool test rules}.
 */
package dev.infermon.rules.testing;
