package dev.infermon.textparse;

/**
 * How much of a format's rules a parser enforces beyond its grammar.
 *
 * <p>The grammar (names, labels, escapes, values, timestamps, UTF-8, limits) is always enforced.
 */
public enum Conformance {
  /**
   * The grammar only, as Prometheus' scrape parsers check it: metadata may repeat and appear
   * anywhere, families are not validated. vLLM behind Ray serves such pages, and Prometheus scrapes
   * them.
   */
  LENIENT,
  /**
   * The grammar and the format's family rules. For OpenMetrics 1.0: metadata once and before the
   * family's samples, no clashing names, {@code # EOF}, counter/histogram/summary/info/stateset
   * value and label rules, sample grouping and timestamp order, exemplar placement and size (the
   * rules of the OpenMetrics conformance suite). For the text format: at most one HELP and one TYPE
   * per family and TYPE before the family's samples, only {@code \\ \" \n} escapes, histogram
   * buckets with numeric {@code le} in increasing order ending at {@code +Inf} equal to {@code
   * _count}, summaries with a numeric {@code quantile} (the rules of the format's documentation and
   * of {@code promtool check metrics}).
   */
  STRICT
}
