package dev.infermon.llm.signals;

import java.util.Locale;

/**
 * How the series of one signal combine across shards of one pod (vLLM's data-parallel {@code
 * engine}s, SGLang's DP-attention ranks) and across pods: counts and rates add up, ratios do not.
 */
public enum Aggregation {
  SUM,
  MAX,
  AVG;

  /** The PromQL aggregation operator. */
  public String op() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The aggregation named {@code s} in the catalog. */
  public static Aggregation parse(String s) {
    for (Aggregation a : values()) {
      if (a.op().equals(s)) {
        return a;
      }
    }
    throw new IllegalArgumentException("unknown aggregation: \"" + s + "\" (sum, max or avg)");
  }
}
