package dev.infermon.promql.parser;

import java.util.Locale;

/** Aggregation operators. Some take a parameter ({@link #hasParam()}). */
public enum AggregateOp {
  SUM,
  AVG,
  COUNT,
  MIN,
  MAX,
  GROUP,
  STDDEV,
  STDVAR,
  TOPK,
  BOTTOMK,
  COUNT_VALUES,
  QUANTILE,
  /** Experimental in Prometheus 3 ({@code --enable-feature=promql-experimental-functions}). */
  LIMITK,
  /** Experimental in Prometheus 3 ({@code --enable-feature=promql-experimental-functions}). */
  LIMIT_RATIO;

  /** The keyword as written in PromQL. */
  public String keyword() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether the operator takes a parameter before the expression. */
  public boolean hasParam() {
    return this == TOPK
        || this == BOTTOMK
        || this == COUNT_VALUES
        || this == QUANTILE
        || this == LIMITK
        || this == LIMIT_RATIO;
  }

  /** The aggregation for a keyword, or null. Keywords are case-insensitive in PromQL. */
  public static AggregateOp fromKeyword(String word) {
    String upper = word.toUpperCase(Locale.ROOT);
    for (AggregateOp op : values()) {
      if (op.name().equals(upper)) {
        return op;
      }
    }
    return null;
  }
}
