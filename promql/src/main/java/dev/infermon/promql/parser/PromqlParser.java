package dev.infermon.promql.parser;

import dev.infermon.model.labels.Matcher;
import java.util.List;

/**
 * Parses PromQL as Prometheus 3 does: a hand-written lexer and precedence-climbing parser with
 * Prometheus's grammar, type rules ({@code checkAST}) and error messages. Errors are {@link
 * ParseException}s that carry the position and the offending token.
 *
 * <p>Prometheus's experimental syntax (duration arithmetic such as {@code [5m+1m]}, {@code fill}
 * modifiers, {@code anchored}/{@code smoothed} ranges, aligned subqueries) is rejected with an
 * error; experimental functions are accepted unless {@link Options#experimentalFunctions()} is off.
 *
 * <p>Nesting is bounded by {@link Nesting#MAX_DEPTH}, not by the caller's stack: a parse deeper
 * than {@link Nesting} lets the caller's thread go runs again on a thread of its own.
 *
 * <p>Stateless and thread-safe: every call parses on its own.
 */
public final class PromqlParser {
  private PromqlParser() {}

  /**
   * Parser settings.
   *
   * @param experimentalFunctions accept the functions and aggregations Prometheus gates behind
   *     {@code --enable-feature=promql-experimental-functions} ({@code sort_by_label}, {@code
   *     limitk}, {@code mad_over_time}, ...)
   */
  public record Options(boolean experimentalFunctions) {
    /** Experimental functions on: what Prometheus's own test scripts assume. */
    public static final Options DEFAULT = new Options(true);

    /** Prometheus's defaults: experimental functions off. */
    public static final Options PROMETHEUS_DEFAULTS = new Options(false);
  }

  /**
   * Parses and type-checks a PromQL expression.
   *
   * @throws ParseException if the input is not a valid expression
   */
  public static Expr parse(String input) {
    return parse(input, Options.DEFAULT);
  }

  /**
   * Parses and type-checks a PromQL expression with the given options.
   *
   * @throws ParseException if the input is not a valid expression
   */
  public static Expr parse(String input, Options options) {
    try {
      return parseChecked(input, options, Nesting.INLINE_DEPTH);
    } catch (TokenStream.TooDeepException | StackOverflowError shallowThread) {
      // Deeper than the caller's thread may go: again (a parse has no side effects), on a stack
      // sized for the input, as every level of nesting takes at least one character.
      int bound = Math.min(input.length(), Nesting.MAX_DEPTH) + 1;
      try {
        return Nesting.onOwnStack(bound, () -> parseChecked(input, options, Nesting.MAX_DEPTH));
      } catch (TokenStream.TooDeepException e) {
        throw new ParseException(input, e.pos, e.pos, Nesting.tooDeep(Nesting.MAX_DEPTH + 1));
      }
    }
  }

  private static Expr parseChecked(String input, Options options, int maxDepth) {
    TokenStream ts = new TokenStream(input, options, maxDepth);
    if (ts.at(TokenKind.EOF)) {
      throw ts.fail(0, 0, "no expression found in input");
    }
    Expr e = ExprParser.expression(ts, 0);
    Token t = ts.peek();
    if (t.kind() != TokenKind.EOF) {
      throw ts.unexpected(t);
    }
    ts.throwIfErrors();
    TypeChecker.check(ts, e);
    ts.throwIfErrors();
    return e;
  }

  /**
   * Parses a series selector such as the HTTP API's {@code match[]}: {@code foo}, {@code
   * foo{job="api"}}, {@code {__name__=~"a|b"}}, {@code {"my.metric"}}. Returns its matchers, the
   * metric name's last. Like Prometheus, does not require a non-empty matcher; callers that need
   * one check it.
   *
   * @throws ParseException if the input is not a selector
   */
  public static List<Matcher> parseMetricSelector(String input) {
    TokenStream ts = new TokenStream(input, Options.DEFAULT, Nesting.INLINE_DEPTH);
    Token t = ts.peek();
    if (t.kind() != TokenKind.LEFT_BRACE && !t.kind().isMetricIdentifier()) {
      throw ts.unexpected(t);
    }
    VectorSelector vs = SelectorParser.vectorSelector(ts);
    Token end = ts.peek();
    if (end.kind() != TokenKind.EOF) {
      throw ts.unexpected(end);
    }
    ts.throwIfErrors();
    return vs.matchers();
  }

  /**
   * Parses a Prometheus duration ({@code 1h30m}, {@code 500ms}, {@code 1y}, {@code 1w}, {@code 1d})
   * into milliseconds.
   *
   * @throws IllegalArgumentException naming the value, with Prometheus's message
   */
  public static long parseDuration(String s) {
    return Durations.parse(s);
  }

  /**
   * Parses a number literal as PromQL reads it: decimal, hex ({@code 0x1f}), octal ({@code 0755}),
   * exponents, {@code Inf} and {@code NaN} in any case, {@code _} between digits.
   *
   * @throws IllegalArgumentException naming the value, with Go's message
   */
  public static double parseNumber(String s) {
    return Numbers.parseLiteral(s);
  }
}
