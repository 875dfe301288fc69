package dev.infermon.promql.parser;

import java.util.Locale;

/**
 * The postfix parts of an expression: ranges {@code [5m]}, subqueries {@code [1h:5m]}, {@code
 * offset} and {@code @}. Their rules (ranges only on selectors, no offset before a range, each
 * modifier at most once, durations greater than zero) are Prometheus's, with its messages.
 */
final class ModifierParser {
  /** Prometheus's bound for a duration literal in seconds: it must fit int64 nanoseconds. */
  private static final double MAX_DURATION_SECONDS = 9.223372036854775807e9;

  private static final String DURATION_EXPECTED = "number, duration, step(), or range()";

  private ModifierParser() {}

  /** Applies every postfix modifier that follows {@code e}. */
  static Expr postfix(TokenStream ts, Expr e) {
    while (true) {
      switch (ts.peek().kind()) {
        case LEFT_BRACKET:
          e = rangeOrSubquery(ts, e);
          break;
        case OFFSET:
          e = offset(ts, e);
          break;
        case AT:
          e = at(ts, e);
          break;
        case ANCHORED:
        case SMOOTHED:
          {
            Token t = ts.next();
            ts.error(
                e, t.text().toLowerCase(Locale.ROOT) + " modifier is experimental and not enabled");
            break;
          }
        default:
          return e;
      }
    }
  }

  private static Expr rangeOrSubquery(TokenStream ts, Expr e) {
    Token open = ts.next();
    Literal range = durationLiteral(ts, true);
    if (range == null) {
      throw ts.unexpected(ts.peek(), "subquery or range selector", DURATION_EXPECTED);
    }
    Token t = ts.peek();
    if (t.kind() == TokenKind.RIGHT_BRACKET) {
      Token close = ts.next();
      return matrix(ts, e, range.millis, open, close);
    }
    if (t.kind() == TokenKind.DOUBLE_COLON) {
      throw ts.fail(t.pos(), t.end(), "aligned subqueries (\"::\") are not supported");
    }
    if (t.kind() != TokenKind.COLON) {
      throw ts.unexpected(t, "subquery or range", "\":\" or \"]\"");
    }
    ts.next();
    long step = 0;
    if (!ts.at(TokenKind.RIGHT_BRACKET)) {
      Literal s = durationLiteral(ts, true);
      if (s == null) {
        throw ts.unexpected(ts.peek(), "subquery selector", DURATION_EXPECTED + ", or \"]\"");
      }
      step = s.millis;
      if (!ts.at(TokenKind.RIGHT_BRACKET)) {
        throw ts.unexpected(ts.peek(), "subquery selector", "\"]\"");
      }
    }
    Token close = ts.next();
    return ts.positions.put(
        new SubqueryExpr(e, range.millis, step, 0, null), ts.positions.start(e), close.end());
  }

  private static Expr matrix(TokenStream ts, Expr e, long rangeMs, Token open, Token close) {
    String problem = null;
    if (!(e instanceof VectorSelector)) {
      problem = "ranges only allowed for vector selectors";
    } else if (((VectorSelector) e).offsetMs() != 0) {
      problem = "no offset modifiers allowed before range";
    } else if (((VectorSelector) e).at() != null) {
      problem = "no @ modifiers allowed before range";
    }
    if (problem != null) {
      ts.error(open.pos(), close.end(), problem);
    }
    if (!(e instanceof VectorSelector)) {
      return e;
    }
    return ts.positions.put(
        new MatrixSelector((VectorSelector) e, rangeMs), ts.positions.start(e), close.end());
  }

  private static Expr offset(TokenStream ts, Expr e) {
    ts.next();
    Literal lit = durationLiteral(ts, false);
    if (lit == null) {
      throw ts.unexpected(ts.peek(), "offset", DURATION_EXPECTED);
    }
    long ms = lit.millis;
    int end = ts.last().end();
    if (e instanceof VectorSelector) {
      VectorSelector vs = (VectorSelector) e;
      if (offsetAlreadySet(ts, e, vs.offsetMs())) {
        return e;
      }
      return ts.positions.put(
          new VectorSelector(vs.name(), vs.matchers(), ms, vs.at()), ts.positions.start(e), end);
    }
    if (e instanceof MatrixSelector) {
      MatrixSelector m = (MatrixSelector) e;
      VectorSelector vs = m.selector();
      if (offsetAlreadySet(ts, e, vs.offsetMs())) {
        return e;
      }
      VectorSelector inner = new VectorSelector(vs.name(), vs.matchers(), ms, vs.at());
      ts.positions.put(inner, ts.positions.start(vs), ts.positions.end(vs));
      return ts.positions.put(new MatrixSelector(inner, m.rangeMs()), ts.positions.start(e), end);
    }
    if (e instanceof SubqueryExpr) {
      SubqueryExpr s = (SubqueryExpr) e;
      if (offsetAlreadySet(ts, e, s.offsetMs())) {
        return e;
      }
      return ts.positions.put(
          new SubqueryExpr(s.expr(), s.rangeMs(), s.stepMs(), ms, s.at()),
          ts.positions.start(e),
          end);
    }
    ts.error(
        e,
        "offset modifier must be preceded by an instant vector selector or range vector selector"
            + " or a subquery");
    return e;
  }

  private static boolean offsetAlreadySet(TokenStream ts, Expr e, long offsetMs) {
    if (offsetMs != 0) {
      ts.error(e, "offset may not be set multiple times");
      return true;
    }
    return false;
  }

  private static Expr at(TokenStream ts, Expr e) {
    ts.next();
    Token t = ts.peek();
    AtModifier at;
    if (t.kind() == TokenKind.START || t.kind() == TokenKind.END) {
      ts.next();
      if (!ts.at(TokenKind.LEFT_PAREN)) {
        throw ts.unexpected(ts.peek(), "@", "timestamp");
      }
      ts.next();
      if (!ts.at(TokenKind.RIGHT_PAREN)) {
        throw ts.unexpected(ts.peek(), "@", "timestamp");
      }
      ts.next();
      at = t.kind() == TokenKind.START ? AtModifier.START : AtModifier.END;
    } else {
      Double seconds = signedNumber(ts);
      if (seconds == null) {
        throw ts.unexpected(ts.peek(), "@", "timestamp");
      }
      double s = seconds;
      if (Double.isNaN(s) || Double.isInfinite(s) || s >= 0x1p63 || s <= -0x1p63) {
        ts.error(e, "timestamp out of bounds for @ modifier: " + goFloat(s));
      }
      at = AtModifier.at(Math.round(s * 1000));
    }
    int end = ts.last().end();
    AtModifier existing;
    if (e instanceof VectorSelector) {
      existing = ((VectorSelector) e).at();
    } else if (e instanceof MatrixSelector) {
      existing = ((MatrixSelector) e).selector().at();
    } else if (e instanceof SubqueryExpr) {
      existing = ((SubqueryExpr) e).at();
    } else {
      ts.error(
          e,
          "@ modifier must be preceded by an instant vector selector or range vector selector or a"
              + " subquery");
      return e;
    }
    if (existing != null) {
      ts.error(e, "@ <timestamp> may not be set multiple times");
      return e;
    }
    int start = ts.positions.start(e);
    if (e instanceof VectorSelector) {
      VectorSelector vs = (VectorSelector) e;
      return ts.positions.put(
          new VectorSelector(vs.name(), vs.matchers(), vs.offsetMs(), at), start, end);
    }
    if (e instanceof MatrixSelector) {
      MatrixSelector m = (MatrixSelector) e;
      VectorSelector vs = m.selector();
      VectorSelector inner = new VectorSelector(vs.name(), vs.matchers(), vs.offsetMs(), at);
      ts.positions.put(inner, ts.positions.start(vs), ts.positions.end(vs));
      return ts.positions.put(new MatrixSelector(inner, m.rangeMs()), start, end);
    }
    SubqueryExpr s = (SubqueryExpr) e;
    return ts.positions.put(
        new SubqueryExpr(s.expr(), s.rangeMs(), s.stepMs(), s.offsetMs(), at), start, end);
  }

  /** {@code [+-]? (number | duration)} in seconds, or null (nothing consumed) if absent. */
  private static Double signedNumber(TokenStream ts) {
    Token sign = null;
    if ((ts.at(TokenKind.ADD) || ts.at(TokenKind.SUB)) && isNumberToken(ts.peek2().kind())) {
      sign = ts.next();
    }
    Token t = ts.peek();
    if (!isNumberToken(t.kind())) {
      return null;
    }
    ts.next();
    double v = t.kind() == TokenKind.NUMBER ? number(ts, t) : durationNanos(ts, t) / 1e9;
    return sign != null && sign.kind() == TokenKind.SUB ? -v : v;
  }

  /** A duration as written in brackets or after {@code offset}. */
  private static final class Literal {
    final long millis;

    Literal(long millis) {
      this.millis = millis;
    }
  }

  /**
   * {@code [+-]? (number | duration)}, in seconds when a number. Returns null, consuming nothing,
   * if no literal starts here. Prometheus's experimental duration arithmetic ({@code [5m+1m]},
   * {@code step()}, ...) is rejected.
   */
  private static Literal durationLiteral(TokenStream ts, boolean positive) {
    Token first = ts.peek();
    Token sign = null;
    if (first.kind() == TokenKind.ADD || first.kind() == TokenKind.SUB) {
      if (!isNumberToken(ts.peek2().kind())) {
        if (isDurationExprStart(ts.peek2().kind())) {
          throw ts.fail(
              first.pos(), first.end(), "experimental duration expression is not enabled");
        }
        return null;
      }
      sign = ts.next();
    }
    Token t = ts.peek();
    if (isDurationExprStart(t.kind())) {
      if ((t.kind() == TokenKind.STEP || t.kind() == TokenKind.RANGE)
          && ts.peek2().kind() != TokenKind.LEFT_PAREN) {
        // A bare "step" is no duration: the error is about what follows it, as in Prometheus.
        ts.next();
        throw ts.unexpected(ts.peek(), "subquery or range selector", DURATION_EXPECTED);
      }
      throw ts.fail(t.pos(), t.end(), "experimental duration expression is not enabled");
    }
    if (!isNumberToken(t.kind())) {
      return null;
    }
    ts.next();
    boolean negative = sign != null && sign.kind() == TokenKind.SUB;
    int start = sign != null ? sign.pos() : t.pos();
    // Inside brackets an operator after the literal makes a duration expression; after "offset"
    // it is the next binary operator ("foo offset 5s - 8" is "(foo offset 5s) - 8").
    if (positive) {
      switch (ts.peek().kind()) {
        case ADD:
        case SUB:
        case MUL:
        case DIV:
        case MOD:
        case POW:
          throw ts.fail(start, t.end(), "experimental duration expression is not enabled");
        default:
          break;
      }
    }
    long nanos;
    if (t.kind() == TokenKind.DURATION) {
      nanos = durationNanos(ts, t);
      nanos = negative ? -nanos : nanos;
    } else {
      double seconds = number(ts, t);
      seconds = negative ? -seconds : seconds;
      if (seconds > MAX_DURATION_SECONDS || seconds < -MAX_DURATION_SECONDS) {
        ts.error(start, t.end(), "duration out of range");
        return new Literal(0);
      }
      nanos = Math.round(seconds * 1e9);
    }
    if (positive && nanos <= 0) {
      ts.error(start, t.end(), "duration must be greater than 0");
      return new Literal(0);
    }
    return new Literal(nanos / 1_000_000L);
  }

  private static boolean isNumberToken(TokenKind k) {
    return k == TokenKind.NUMBER || k == TokenKind.DURATION;
  }

  private static boolean isDurationExprStart(TokenKind k) {
    return k == TokenKind.LEFT_PAREN
        || k == TokenKind.STEP
        || k == TokenKind.RANGE
        || k == TokenKind.MIN
        || k == TokenKind.MAX;
  }

  /** The value of a number token, recording Prometheus's error if it is malformed. */
  static double number(TokenStream ts, Token t) {
    try {
      return Numbers.parseLiteral(t.text());
    } catch (IllegalArgumentException e) {
      ts.error(t.pos(), t.end(), "error parsing number: " + e.getMessage());
      return 0;
    }
  }

  /** The value of a duration token in nanoseconds, recording the error if it is malformed. */
  static long durationNanos(TokenStream ts, Token t) {
    try {
      return Durations.parseNanos(t.text());
    } catch (IllegalArgumentException e) {
      ts.error(t.pos(), t.end(), e.getMessage());
      return 0;
    }
  }

  /** Go's {@code %f}: six decimals, {@code +Inf}, {@code -Inf}, {@code NaN}. */
  private static String goFloat(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    return new java.math.BigDecimal(v)
        .setScale(6, java.math.RoundingMode.HALF_EVEN)
        .toPlainString();
  }
}
