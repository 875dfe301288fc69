package dev.infermon.llm.inventory;

import dev.infermon.model.metadata.MetricType;
import java.util.List;
import java.util.Set;

/**
 * What a target exposes for one metric family: its type (UNKNOWN when only samples were seen), the
 * label names of its series (without {@code __name__} and {@code le}), and a histogram's finite
 * bucket bounds in increasing order.
 */
public record FamilyInfo(
    String name, MetricType type, Set<String> labelNames, List<Double> bounds) {
  public FamilyInfo {
    labelNames = Set.copyOf(labelNames);
    bounds = List.copyOf(bounds);
  }
}
