package dev.infermon.promql.parser;

import dev.infermon.model.labels.Matcher;
import java.util.List;

/**
 * An instant-vector selector such as {@code http_requests_total{job="api"} offset 5m @ 100}.
 *
 * @param name the metric name as written before the braces, or null when none was written
 * @param matchers every matcher, including the {@code __name__} matcher implied by {@code name}
 * @param offsetMs the offset in milliseconds (negative allowed); 0 when none
 * @param at the {@code @} modifier, or null
 */
public record VectorSelector(String name, List<Matcher> matchers, long offsetMs, AtModifier at)
    implements Expr {
  public VectorSelector {
    matchers = List.copyOf(matchers);
  }

  @Override
  public ValueType type() {
    return ValueType.VECTOR;
  }
}
