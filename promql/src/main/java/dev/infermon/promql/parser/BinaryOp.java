package dev.infermon.promql.parser;

/**
 * Binary operators with Prometheus's precedence (higher binds tighter): {@code ^} (6, right
 * associative) &gt; {@code * / % atan2} (5) &gt; {@code + -} (4) &gt; comparisons (3) &gt; {@code
 * and unless} (2) &gt; {@code or} (1). {@link #ADD} and {@link #SUB} also serve as unary operators.
 */
public enum BinaryOp {
  POW("^", 6),
  MUL("*", 5),
  DIV("/", 5),
  MOD("%", 5),
  ATAN2("atan2", 5),
  ADD("+", 4),
  SUB("-", 4),
  EQL("==", 3),
  NEQ("!=", 3),
  GTR(">", 3),
  LSS("<", 3),
  GTE(">=", 3),
  LTE("<=", 3),
  LAND("and", 2),
  LUNLESS("unless", 2),
  LOR("or", 1);

  private final String symbol;
  private final int precedence;

  BinaryOp(String symbol, int precedence) {
    this.symbol = symbol;
    this.precedence = precedence;
  }

  /** The operator as written in PromQL. */
  public String symbol() {
    return symbol;
  }

  /** Binding strength; higher binds tighter. */
  public int precedence() {
    return precedence;
  }

  /** Only {@code ^} is right-associative. */
  public boolean rightAssociative() {
    return this == POW;
  }

  /** {@code == != > < >= <=}: filter unless {@code bool} is given. */
  public boolean isComparison() {
    return precedence == 3;
  }

  /** {@code and or unless}: vector-only, many-to-many. */
  public boolean isSetOperator() {
    return this == LAND || this == LOR || this == LUNLESS;
  }
}
