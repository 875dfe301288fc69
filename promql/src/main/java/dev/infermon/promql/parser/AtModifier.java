package dev.infermon.promql.parser;

/**
 * The {@code @} modifier: a fixed time, or the query's start or end.
 *
 * @param kind which form was written
 * @param timestampMs the fixed time in milliseconds, for {@link Kind#TIMESTAMP}; 0 otherwise
 */
public record AtModifier(Kind kind, long timestampMs) {
  /** The three forms of {@code @}. */
  public enum Kind {
    TIMESTAMP,
    START,
    END
  }

  public static AtModifier at(long timestampMs) {
    return new AtModifier(Kind.TIMESTAMP, timestampMs);
  }

  public static final AtModifier START = new AtModifier(Kind.START, 0);
  public static final AtModifier END = new AtModifier(Kind.END, 0);
}
