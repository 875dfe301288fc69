package dev.infermon.rules.rulefmt;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One validated rule group.
 *
 * @param interval the group's {@code interval}; empty means the global evaluation interval
 * @param queryOffset the group's {@code query_offset}; empty means the global rule query offset
 * @param limit {@code limit}: the most series a recording rule or alerts an alerting rule may
 *     produce; 0 for no limit
 * @param labels {@code labels} added to every rule of the group (Prometheus 3.x)
 */
public record GroupSpec(
    String name,
    Optional<Duration> interval,
    Optional<Duration> queryOffset,
    int limit,
    Map<String, String> labels,
    List<RuleSpec> rules,
    int line) {
  public GroupSpec {
    labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    rules = List.copyOf(rules);
  }
}
