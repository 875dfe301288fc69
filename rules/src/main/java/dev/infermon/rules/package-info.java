/**
 * Recording and alerting rules, evaluated as Prometheus's {@code rules} package does. {@link
 * dev.infermon.rules.RuleManager} runs {@link dev.infermon.rules.RuleGroup}s on their intervals;
 * rules query through a {@link dev.infermon.rules.QueryFunction} (never the engine directly), write
 * to an {@link dev.infermon.storage.Appendable} and hand alerts to an {@link
 * dev.infermon.rules.AlertNotifier}. {@link dev.infermon.rules.RuleGroupStatus} and {@link
 * dev.infermon.rules.RuleStatus} are immutable snapshots for {@code /api/v1/rules} and {@code
 * /api/v1/alerts}. Threading is stated on each class.
 */
package dev.infermon.rules;
