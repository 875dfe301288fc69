package dev.infermon.promql.parser;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The kinds of token the PromQL lexer produces, grouped as Prometheus's {@code lex.go} groups them,
 * because the group decides how a token is named in an error ({@code <op:*>}, {@code <aggr:sum>},
 * {@code <by>}, ...).
 */
enum TokenKind {
  EOF(Group.OTHER, null),
  ERROR(Group.OTHER, null),
  COMMENT(Group.OTHER, null),
  IDENTIFIER(Group.OTHER, null),
  METRIC_IDENTIFIER(Group.OTHER, null),
  NUMBER(Group.OTHER, null),
  DURATION(Group.OTHER, null),
  STRING(Group.OTHER, null),
  LEFT_PAREN(Group.OTHER, "("),
  RIGHT_PAREN(Group.OTHER, ")"),
  LEFT_BRACE(Group.OTHER, "{"),
  RIGHT_BRACE(Group.OTHER, "}"),
  LEFT_BRACKET(Group.OTHER, "["),
  RIGHT_BRACKET(Group.OTHER, "]"),
  COMMA(Group.OTHER, ","),
  EQL(Group.OTHER, "="),
  COLON(Group.OTHER, ":"),
  DOUBLE_COLON(Group.OTHER, "::"),

  ADD(Group.OPERATOR, "+"),
  SUB(Group.OPERATOR, "-"),
  MUL(Group.OPERATOR, "*"),
  DIV(Group.OPERATOR, "/"),
  MOD(Group.OPERATOR, "%"),
  POW(Group.OPERATOR, "^"),
  EQLC(Group.OPERATOR, "=="),
  NEQ(Group.OPERATOR, "!="),
  LSS(Group.OPERATOR, "<"),
  LTE(Group.OPERATOR, "<="),
  GTR(Group.OPERATOR, ">"),
  GTE(Group.OPERATOR, ">="),
  EQL_REGEX(Group.OPERATOR, "=~"),
  NEQ_REGEX(Group.OPERATOR, "!~"),
  AT(Group.OPERATOR, "@"),
  LAND(Group.OPERATOR, "and"),
  LOR(Group.OPERATOR, "or"),
  LUNLESS(Group.OPERATOR, "unless"),
  ATAN2(Group.OPERATOR, "atan2"),

  AVG(Group.AGGREGATOR, "avg"),
  BOTTOMK(Group.AGGREGATOR, "bottomk"),
  COUNT(Group.AGGREGATOR, "count"),
  COUNT_VALUES(Group.AGGREGATOR, "count_values"),
  GROUP(Group.AGGREGATOR, "group"),
  MAX(Group.AGGREGATOR, "max"),
  MIN(Group.AGGREGATOR, "min"),
  QUANTILE(Group.AGGREGATOR, "quantile"),
  STDDEV(Group.AGGREGATOR, "stddev"),
  STDVAR(Group.AGGREGATOR, "stdvar"),
  SUM(Group.AGGREGATOR, "sum"),
  TOPK(Group.AGGREGATOR, "topk"),
  LIMITK(Group.AGGREGATOR, "limitk"),
  LIMIT_RATIO(Group.AGGREGATOR, "limit_ratio"),

  BOOL(Group.KEYWORD, "bool"),
  BY(Group.KEYWORD, "by"),
  GROUP_LEFT(Group.KEYWORD, "group_left"),
  GROUP_RIGHT(Group.KEYWORD, "group_right"),
  IGNORING(Group.KEYWORD, "ignoring"),
  OFFSET(Group.KEYWORD, "offset"),
  ON(Group.KEYWORD, "on"),
  WITHOUT(Group.KEYWORD, "without"),
  ANCHORED(Group.KEYWORD, "anchored"),
  SMOOTHED(Group.KEYWORD, "smoothed"),
  FILL(Group.KEYWORD, "fill"),
  FILL_LEFT(Group.KEYWORD, "fill_left"),
  FILL_RIGHT(Group.KEYWORD, "fill_right"),

  START(Group.PREPROCESSOR, "start"),
  END(Group.PREPROCESSOR, "end"),
  STEP(Group.PREPROCESSOR, "step"),
  RANGE(Group.PREPROCESSOR, "range");

  /** How Prometheus groups item types; decides the spelling in error messages. */
  enum Group {
    OTHER,
    OPERATOR,
    AGGREGATOR,
    KEYWORD,
    PREPROCESSOR
  }

  private static final Map<String, TokenKind> KEYWORDS = new HashMap<>();

  static {
    for (TokenKind k : values()) {
      if (k.symbol != null && Character.isLetter(k.symbol.charAt(0))) {
        KEYWORDS.put(k.symbol, k);
      }
    }
    // Special numbers are lexed as keywords that yield NUMBER tokens.
    KEYWORDS.put("inf", NUMBER);
    KEYWORDS.put("nan", NUMBER);
  }

  final Group group;
  private final String symbol;

  TokenKind(Group group, String symbol) {
    this.group = group;
    this.symbol = symbol;
  }

  /** The keyword token for a word (case-insensitive), or null if the word is no keyword. */
  static TokenKind keyword(String word) {
    return KEYWORDS.get(word.toLowerCase(Locale.ROOT));
  }

  /** Whether Prometheus's {@code ItemTypeStr} has a fixed spelling for this kind. */
  boolean hasSymbol() {
    return symbol != null;
  }

  /** The description of a kind without fixed spelling, as in {@code ItemType.desc()}. */
  String description() {
    switch (this) {
      case ERROR:
        return "error";
      case EOF:
        return "end of input";
      case COMMENT:
        return "comment";
      case IDENTIFIER:
        return "identifier";
      case METRIC_IDENTIFIER:
        return "metric identifier";
      case STRING:
        return "string";
      case NUMBER:
        return "number";
      case DURATION:
        return "duration";
      default:
        return GoText.quote(symbol == null ? name() : symbol);
    }
  }

  /** The binary operator this token stands for, or null. */
  BinaryOp binaryOp() {
    switch (this) {
      case ADD:
        return BinaryOp.ADD;
      case SUB:
        return BinaryOp.SUB;
      case MUL:
        return BinaryOp.MUL;
      case DIV:
        return BinaryOp.DIV;
      case MOD:
        return BinaryOp.MOD;
      case POW:
        return BinaryOp.POW;
      case ATAN2:
        return BinaryOp.ATAN2;
      case EQLC:
        return BinaryOp.EQL;
      case NEQ:
        return BinaryOp.NEQ;
      case LSS:
        return BinaryOp.LSS;
      case LTE:
        return BinaryOp.LTE;
      case GTR:
        return BinaryOp.GTR;
      case GTE:
        return BinaryOp.GTE;
      case LAND:
        return BinaryOp.LAND;
      case LOR:
        return BinaryOp.LOR;
      case LUNLESS:
        return BinaryOp.LUNLESS;
      default:
        return null;
    }
  }

  /** The aggregation this token stands for, or null. */
  AggregateOp aggregateOp() {
    return group == Group.AGGREGATOR ? AggregateOp.fromKeyword(symbol) : null;
  }

  /**
   * Whether the token may be a metric name at the start of a selector: Prometheus's {@code
   * metric_identifier} accepts many keywords ({@code sum}, {@code by}, {@code offset}, ...).
   */
  boolean isMetricIdentifier() {
    switch (this) {
      case IDENTIFIER:
      case METRIC_IDENTIFIER:
      case BY:
      case WITHOUT:
      case OFFSET:
      case LAND:
      case LOR:
      case LUNLESS:
      case START:
      case END:
      case STEP:
      case RANGE:
      case ANCHORED:
      case SMOOTHED:
        return true;
      default:
        return group == Group.AGGREGATOR;
    }
  }

  /**
   * Whether the token may be a label name in {@code by (...)}, {@code on (...)}, ...: Prometheus's
   * {@code maybe_label} (note: {@code without} and the {@code fill} keywords are not).
   */
  boolean isMaybeLabel() {
    switch (this) {
      case IDENTIFIER:
      case METRIC_IDENTIFIER:
      case BOOL:
      case BY:
      case GROUP_LEFT:
      case GROUP_RIGHT:
      case IGNORING:
      case LAND:
      case LOR:
      case LUNLESS:
      case OFFSET:
      case ON:
      case START:
      case END:
      case ATAN2:
      case STEP:
      case RANGE:
      case ANCHORED:
      case SMOOTHED:
        return true;
      default:
        return group == Group.AGGREGATOR;
    }
  }

  /** {@code = != =~ !~} inside braces. */
  boolean isMatchOp() {
    return this == EQL || this == NEQ || this == EQL_REGEX || this == NEQ_REGEX;
  }
}
