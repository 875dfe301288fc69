package dev.infermon.llm.catalog;

import java.util.List;

/**
 * Why a metric, though exposed, must not be used, and the counter-based forms that measure the same
 * thing (SGLang's {@code cache_hit_rate} is one prefill batch's rate, zeroed at every decode log).
 * Immutable.
 *
 * @param why what makes the metric misleading, as the engine's docs or issues say
 * @param use the replacements, preferred first
 */
public record Avoidance(String why, List<Replacement> use) {
  public Avoidance {
    if (why == null || why.isBlank()) {
      throw new IllegalArgumentException("an avoided metric says why");
    }
    use = List.copyOf(use);
  }

  /**
   * One replacement: a PromQL expression with {@code {prefix}} where the engine's prefix goes, and
   * the catalog families it needs (a release without them cannot use it).
   */
  public record Replacement(String expr, List<String> metrics) {
    public Replacement {
      if (expr == null || expr.isBlank() || metrics == null || metrics.isEmpty()) {
        throw new IllegalArgumentException("a replacement needs an expression and its families");
      }
      metrics = List.copyOf(metrics);
    }

    /** The expression under a prefix ({@code sglang:} or {@code sglang_}). */
    public String expr(String prefix) {
      return expr.replace("{prefix}", prefix);
    }
  }
}
