package dev.infermon.promql.parser;

import java.util.ArrayList;
import java.util.List;

/**
 * The shared state of one parse: the tokens (comments dropped, two of lookahead), the errors found
 * so far, and the positions of the nodes built. Like Prometheus's parser, semantic errors are
 * collected and parsing goes on, while a syntax error stops it; the first error found is the one
 * reported.
 *
 * <p>Not thread-safe; lives for one parse.
 */
final class TokenStream {
  final String input;
  final PromqlParser.Options options;
  final Positions positions = new Positions();
  private final Lexer lexer;
  private final List<ParseException> errors = new ArrayList<>();
  private final Token[] ahead = new Token[2];
  private int buffered;
  private Token last;

  /** How many aggregations are open: a syntax error inside one is "... in aggregation". */
  int aggregationDepth;

  /** How many expressions are open, and how many may be ({@link Nesting}). */
  private int depth;

  private final int maxDepth;

  TokenStream(String input, PromqlParser.Options options, int maxDepth) {
    this.input = input;
    this.options = options;
    this.lexer = new Lexer(input);
    this.maxDepth = maxDepth;
  }

  /**
   * Opens a nested expression.
   *
   * @throws TooDeepException when more than the allowed number are open
   */
  void enter() {
    if (++depth > maxDepth) {
      throw new TooDeepException(depth, peek().pos());
    }
  }

  void leave() {
    depth--;
  }

  /** A parse nests deeper than its thread allows: thrown up to {@link PromqlParser}, not out. */
  static final class TooDeepException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Where the nesting went one level too deep. */
    final int pos;

    TooDeepException(int depth, int pos) {
      super("nested deeper than " + (depth - 1), null, false, false);
      this.pos = pos;
    }
  }

  Token peek() {
    fill(1);
    return ahead[0];
  }

  Token peek2() {
    fill(2);
    return ahead[1];
  }

  Token next() {
    fill(1);
    last = ahead[0];
    ahead[0] = ahead[1];
    ahead[1] = null;
    buffered--;
    return last;
  }

  boolean at(TokenKind kind) {
    return peek().kind() == kind;
  }

  /** The token most recently consumed. */
  Token last() {
    return last;
  }

  private void fill(int n) {
    while (buffered < n) {
      Token t;
      do {
        t = lexer.nextToken();
      } while (t.kind() == TokenKind.COMMENT);
      if (t.kind() == TokenKind.ERROR) {
        // A lexical error ends the parse; its position runs to the end of the input.
        throw fail(t.pos(), input.length(), t.text());
      }
      ahead[buffered++] = t;
    }
  }

  /** Records a semantic error and lets parsing continue. */
  void error(int start, int end, String message) {
    errors.add(new ParseException(input, start, end, message));
  }

  /** Records an error at a node's position. */
  void error(Expr node, String message) {
    error(positions.start(node), positions.end(node), message);
  }

  /** The exception to throw for a syntax error: the first error found, which may be this one. */
  ParseException fail(int start, int end, String message) {
    error(start, end, message);
    return errors.get(0);
  }

  /**
   * Prometheus's {@code unexpected(context, expected)}: "unexpected &lt;token&gt; [in context][,
   * expected what]".
   */
  ParseException unexpected(Token t, String context, String expected) {
    StringBuilder sb = new StringBuilder("unexpected ").append(t.describe());
    if (!context.isEmpty()) {
      sb.append(" in ").append(context);
    }
    if (!expected.isEmpty()) {
      sb.append(", expected ").append(expected);
    }
    return fail(t.pos(), t.end(), sb.toString());
  }

  /** A syntax error with no more specific context than the enclosing aggregation, if any. */
  ParseException unexpected(Token t) {
    return unexpected(t, aggregationDepth > 0 ? "aggregation" : "", "");
  }

  /** Throws the first error recorded, if any. */
  void throwIfErrors() {
    if (!errors.isEmpty()) {
      throw errors.get(0);
    }
  }

  boolean hasErrors() {
    return !errors.isEmpty();
  }
}
