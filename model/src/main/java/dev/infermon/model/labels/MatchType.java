package dev.infermon.model.labels;

/** The four label-matching operators of PromQL. */
public enum MatchType {
  EQUAL("="),
  NOT_EQUAL("!="),
  REGEX("=~"),
  NOT_REGEX("!~");

  private final String symbol;

  MatchType(String symbol) {
    this.symbol = symbol;
  }

  /** The operator as written in PromQL. */
  public String symbol() {
    return symbol;
  }
}
